/**
 * The layering of DESIGN.md §2 and docs/architecture.md, held by dependency-cruiser: the real
 * tree breaks none of the rules of .dependency-cruiser.cjs, and a tree that breaks each of them
 * on purpose is refused rule by rule — so a rule that could no longer fail would show here.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const depcruise = path.join(root, 'node_modules', '.bin', 'depcruise');
const config = path.join(root, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/**
 * Runs dependency-cruiser on `dirs` of `cwd` with the project's rules, as `npm test` does
 * (`--output-type err`, whose exit status counts the errors), then again for the violations
 * themselves (JSON); paths into node_modules are given from `node_modules/` on.
 */
function cruise(cwd: string, dirs: string[]): { status: number | null; violations: Violation[] } {
  const run = (type: string) =>
    spawnSync(depcruise, ['--config', config, '--output-type', type, ...dirs], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  const { status } = run('err');
  const r = run('json');
  if (!r.stdout) throw new Error(`depcruise printed nothing: ${r.stderr}`);
  const result = JSON.parse(r.stdout) as { summary: { violations: Violation[] } };
  const local = (p: string) => p.replace(/^.*?node_modules\//, 'node_modules/');
  return {
    status,
    violations: result.summary.violations.map((v) => ({ ...v, from: local(v.from), to: local(v.to) })),
  };
}

describe('import rules (dependency-cruiser)', () => {
  it('the tree breaks none of them', () => {
    const { status, violations } = cruise(root, ['src', 'sw']);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    expect(status).toBe(0);
  });

  describe('a tree that breaks each rule on purpose', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpt-layers-'));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    /** Planted modules: path → what it imports. */
    const planted: Record<string, string[]> = {
      'src/contract/a.ts': ['../server/reports/r.ts'],
      'src/client/x.ts': ['../server/reports/r.ts'],
      'src/client/features/one/a.ts': ['../two/b.ts'],
      'src/client/features/two/b.ts': [],
      'src/client/features/three/c.ts': ['../../routes/page.tsx'],
      'src/client/routes/page.tsx': [],
      'src/client/lib/c.ts': ['../features/two/b.ts'],
      'src/client/lib/p.ts': ['./q.ts'],
      'src/client/lib/q.ts': ['./p.ts'],
      'src/client/lib/outbox/o.ts': [],
      'src/client/lib/outbox/page-outbox.ts': ['./o.ts'],
      'src/client/features/four/d.ts': ['../../lib/outbox/page-outbox.ts', '../../lib/outbox/o.ts'],
      'src/client/ui/u.ts': ['../selection/s.ts'],
      'src/client/selection/s.ts': [],
      'src/server/y.ts': ['../client/x.ts'],
      'src/server/reports/r.ts': [],
      'src/server/reports/http.ts': ['../routes/q.ts'],
      'src/server/reports/fastify.ts': ['fastify'],
      'src/server/counting/c.ts': ['../plugins/p.ts'],
      'src/server/plugins/p.ts': [],
      'src/server/db/d.ts': ['../reports/r.ts'],
      'src/server/db/typed.ts': ['type:../reports/r.ts'],
      'src/server/db/schema.ts': [],
      'src/server/routes/q.ts': ['../db/schema.ts'],
      'src/server/import/i.ts': ['../cli/start.ts'],
      'src/server/cli/start.ts': [],
      'sw/sw.ts': ['../src/client/lib/c.ts', '../src/client/lib/outbox/o.ts', '../src/contract/ok.ts'],
      'src/contract/ok.ts': [],
    };
    for (const [file, imports] of Object.entries(planted)) {
      fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      // `type:` marks a type-only import, which must count as much as any other.
      const body = imports
        .map((m, i) =>
          m.startsWith('type:')
            ? `import type { here as t${i} } from '${m.slice(5)}';\nexport type T${i} = typeof t${i};`
            : `import * as m${i} from '${m}';\nconsole.log(m${i});`,
        )
        .join('\n');
      fs.writeFileSync(path.join(dir, file), `${body}\nexport const here = 1;\n`);
    }
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { allowImportingTsExtensions: true, module: 'nodenext', noEmit: true },
      }),
    );
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));

    const { status, violations } = cruise(dir, ['src', 'sw']);
    const found = (rule: string) =>
      violations
        .filter((v) => v.rule.name === rule)
        .map((v) => `${v.from} → ${v.to}`)
        .sort();

    it('fails the run', () => expect(status).not.toBe(0));
    it.each([
      ['contract-imports-nothing-of-ours', ['src/contract/a.ts → src/server/reports/r.ts']],
      ['client-never-imports-server', ['src/client/x.ts → src/server/reports/r.ts']],
      ['server-never-imports-client', ['src/server/y.ts → src/client/x.ts']],
      [
        'client-feature-imports-no-other-feature',
        ['src/client/features/one/a.ts → src/client/features/two/b.ts'],
      ],
      [
        'client-features-import-no-routes-or-app',
        ['src/client/features/three/c.ts → src/client/routes/page.tsx'],
      ],
      ['client-shared-imports-no-feature', ['src/client/lib/c.ts → src/client/features/two/b.ts']],
      ['client-outbox-one-door', ['src/client/features/four/d.ts → src/client/lib/outbox/o.ts']],
      ['client-ui-imports-no-lib-state', ['src/client/ui/u.ts → src/client/selection/s.ts']],
      ['sw-imports-contract-and-outbox-only', ['sw/sw.ts → src/client/lib/c.ts']],
      [
        'server-db-knows-no-domain',
        ['src/server/db/d.ts → src/server/reports/r.ts', 'src/server/db/typed.ts → src/server/reports/r.ts'],
      ],
      [
        'server-domain-knows-no-http',
        [
          'src/server/counting/c.ts → src/server/plugins/p.ts',
          'src/server/reports/fastify.ts → node_modules/fastify/fastify.js',
          'src/server/reports/http.ts → src/server/routes/q.ts',
        ],
      ],
      ['server-routes-leave-sql-to-the-domain', ['src/server/routes/q.ts → src/server/db/schema.ts']],
      ['server-domain-not-into-cli', ['src/server/import/i.ts → src/server/cli/start.ts']],
    ])('refuses %s', (rule, expected) => {
      expect(found(rule)).toEqual(expected);
    });
    it('refuses an import cycle', () => {
      expect(found('no-circular').length).toBeGreaterThan(0);
      expect(found('no-circular').join(' ')).toContain('src/client/lib/p.ts');
    });
  });
});
