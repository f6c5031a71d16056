/**
 * The reason codes of the "Needs attention" card (attention/failure-reason.ts, decision 0045),
 * read from the errors our own code throws: the destination checks of the integrations, Node's
 * file-system errors, and anything else as `Other` (never a stack shown).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureReason } from '../../src/server/attention/failure-reason.ts';
import { checkUrl, folderPath } from '../../src/server/integrations/destination.ts';

/** The message `act` throws. */
async function thrown(act: () => unknown): Promise<string> {
  try {
    await act();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error('nothing thrown');
}

describe('failureReason', () => {
  it('reads the integrations’ refused destinations', async () => {
    expect(failureReason(await thrown(() => checkUrl('http://partner.example/in')))).toEqual({
      raison: 'BadUrl',
      statutHttp: null,
    });
    expect(failureReason(await thrown(() => folderPath('/data', '../out')))).toEqual({
      raison: 'BadFolder',
      statutHttp: null,
    });
  });

  it('reads a folder that cannot be written from Node’s own error', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'attention-reasons-'));
    try {
      await writeFile(path.join(dir, 'file'), 'x');
      const message = await thrown(() => writeFile(path.join(dir, 'file', 'inside'), 'y'));
      expect(failureReason(message)).toEqual({ raison: 'NotWritable', statutHttp: null });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the status of a refused credential and says Other for anything unknown', () => {
    expect(
      failureReason('ecash: site 3 2026-03-05: the endpoint refused the credentials (HTTP 403)'),
    ).toEqual({
      raison: 'Refused',
      statutHttp: 403,
    });
    expect(failureReason('connection terminated unexpectedly')).toEqual({
      raison: 'Other',
      statutHttp: null,
    });
    expect(failureReason(null)).toEqual({ raison: 'Other', statutHttp: null });
  });
});
