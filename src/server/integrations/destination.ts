/**
 * Delivering one file (issue #29, decision 0044): into a folder under `DATA_DIR/exports/`, or to
 * an HTTPS endpoint. A folder must be relative, without `..`, NUL or a link leading out of
 * `exports/`; the file is written under a temporary name then renamed, so a partner polling the
 * folder never reads half a file. An endpoint must be `https:` without credentials in the URL;
 * secret headers go only on the request, never into an error or a log.
 */
import { mkdir, realpath, rename, writeFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { create as contentDisposition } from 'content-disposition';
import type { Destination, Header, HeaderProblem } from '../../contract/integrations.ts';

/** A destination that cannot be used; `reason` is a stable code for the screen. */
export class DestinationError extends Error {
  readonly reason: 'BadFolder' | 'BadUrl' | 'Refused' | 'Http' | 'Network';

  constructor(reason: DestinationError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The folder's absolute path under `<dataDir>/exports/`, checked before any link is followed. */
export function folderPath(dataDir: string, folder: string): string {
  const root = path.join(dataDir, 'exports');
  if (folder.includes('\0') || path.isAbsolute(folder) || /^[A-Za-z]:/.test(folder))
    throw new DestinationError('BadFolder', 'the folder must be relative to DATA_DIR/exports/');
  if (folder.split(/[\\/]/).includes('..'))
    throw new DestinationError('BadFolder', 'the folder may not contain ..');
  return path.join(root, folder);
}

/** Checks an endpoint URL: `https:`, no user or password in it. */
export function checkUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DestinationError('BadUrl', 'the URL is not valid');
  }
  if (u.protocol !== 'https:') throw new DestinationError('BadUrl', 'the URL must start with https://');
  if (u.username || u.password)
    throw new DestinationError('BadUrl', 'credentials go in the secret headers, not in the URL');
  return u;
}

/** RFC 9110 §5.6.2 `token`: the characters a field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * Names an administrator may not set: the ones we write (`Content-Type`, `Content-Length`,
 * `Content-Disposition`), and those that frame the connection or the message (RFC 9110 §7.6.1,
 * RFC 9112) or belong to a proxy.
 */
const RESERVED = new Set([
  'host',
  'content-length',
  'content-type',
  'content-disposition',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'http2-settings',
]);
/** A field value: visible characters, spaces and tabs, no control character (no CR, LF, NUL). */
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A refused header: its place in the list and why. */
export interface HeaderIssue {
  index: number;
  reason: HeaderProblem;
}

/**
 * The first refused header of `headers`, or null: a name that is not an RFC 9110 token
 * (`BadName`), one we set or that frames the message (`ReservedName`: Host, Content-Length,
 * Content-Type, Transfer-Encoding, Connection, Proxy-…), a name given twice, case ignored
 * (`DuplicateName`), a value with a control character or outside Latin-1 (`BadValue`), a public
 * header without a value or a secret one without a value and none stored under its name
 * (`MissingValue`; `storedSecrets` lists the names whose value is stored).
 */
export function headerProblem(
  headers: readonly Header[],
  storedSecrets: ReadonlySet<string>,
): HeaderIssue | null {
  const seen = new Set<string>();
  for (const [index, h] of headers.entries()) {
    const name = h.nom.toLowerCase();
    if (!TOKEN.test(h.nom)) return { index, reason: 'BadName' };
    if (RESERVED.has(name) || name.startsWith('proxy-')) return { index, reason: 'ReservedName' };
    if (seen.has(name)) return { index, reason: 'DuplicateName' };
    seen.add(name);
    if (h.valeur === undefined) {
      if (!h.secret || !storedSecrets.has(name)) return { index, reason: 'MissingValue' };
    } else if (!VALUE.test(h.valeur)) return { index, reason: 'BadValue' };
  }
  return null;
}

/** What a delivery needs besides the destination. */
export interface DeliveryOptions {
  dataDir: string;
  /** Certificates trusted besides the system's (PEM), e.g. a partner's private CA. */
  ca?: string | Buffer;
  /** Headers sent but never shown nor logged (decrypted credentials). */
  secretHeaders?: { nom: string; valeur: string }[];
  /** Milliseconds before a request is abandoned (default 30 000). */
  timeoutMs?: number;
}

/**
 * Writes `bytes` as `name` in the folder (created if needed).
 * @throws DestinationError BadFolder for a path leaving `exports/` (also through a link).
 */
async function toFolder(dataDir: string, folder: string, name: string, bytes: Buffer): Promise<string> {
  const dir = folderPath(dataDir, folder);
  const root = path.join(dataDir, 'exports');
  await mkdir(dir, { recursive: true });
  const [realRoot, realDir] = await Promise.all([realpath(root), realpath(dir)]);
  if (realDir !== realRoot && !realDir.startsWith(realRoot + path.sep))
    throw new DestinationError('BadFolder', 'the folder leads out of DATA_DIR/exports/');
  const target = path.join(realDir, name);
  const tmp = `${target}.part`;
  await writeFile(tmp, bytes);
  await rename(tmp, target);
  return target;
}

/**
 * Sends `bytes` to the endpoint; a 2xx answer is success.
 * @throws DestinationError Refused (401, 403: the credentials), Http (other status), Network.
 */
function toEndpoint(
  d: Extract<Destination, { type: 'https' }>,
  name: string,
  bytes: Buffer,
  encoding: string,
  options: DeliveryOptions,
): Promise<void> {
  const url = checkUrl(d.url);
  const headers: Record<string, string> = {};
  for (const h of d.entetes) if (!h.secret && h.valeur !== undefined) headers[h.nom] = h.valeur;
  for (const h of options.secretHeaders ?? []) headers[h.nom] = h.valeur;
  headers['content-type'] = `text/csv; charset=${encoding}`;
  headers['content-disposition'] = contentDisposition(name);
  headers['content-length'] = String(bytes.length);
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method: d.methode, headers, ca: options.ca, timeout: options.timeoutMs ?? 30_000 },
      (res) => {
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else if (status === 401 || status === 403)
            reject(new DestinationError('Refused', `the endpoint refused the credentials (HTTP ${status})`));
          else reject(new DestinationError('Http', `the endpoint answered HTTP ${status}`));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e) =>
      reject(new DestinationError('Network', `the endpoint could not be reached (${e.message})`)),
    );
    req.end(bytes);
  });
}

/** The key that identifies a destination in the deliveries (a new folder or URL sends again). */
export function destinationKey(d: Destination): string {
  return d.type === 'folder' ? `folder:${d.dossier}` : `https:${d.url}`;
}

/**
 * Delivers `bytes` as `name` to `d`.
 * @returns where it went (a path or the URL), for the run history.
 * @throws DestinationError (see {@link toFolder} and {@link toEndpoint}).
 */
export async function deliver(
  d: Destination,
  name: string,
  bytes: Buffer,
  encoding: string,
  options: DeliveryOptions,
): Promise<string> {
  if (d.type === 'folder') return toFolder(options.dataDir, d.dossier, name, bytes);
  await toEndpoint(d, name, bytes, encoding, options);
  return d.url;
}
