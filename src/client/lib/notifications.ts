/**
 * The notification area's state (SPEC.md §2, §8): errors stay until dismissed, successes go after
 * 5 seconds, and every route change clears them all (the router calls `clearNotifications`).
 * Notifications hold message ids (`error.<code>`, `success.<code>`), never server text: the
 * area translates them, falling back to a generic message for a code the catalogue lacks.
 */
import { proxy } from 'valtio';
import { ApiFailure } from './http.ts';

/** How long a success stays on screen, in milliseconds (SPEC.md §9). */
export const SUCCESS_DURATION_MS = 5_000;

/** Message id shown for a failure that carries no code (a bug, a broken answer). */
export const UNEXPECTED_ERROR_ID = 'app.unexpectedError';

export interface Notification {
  id: number;
  kind: 'error' | 'success';
  /** The code as given (`badCredentials`, `SaveOk`…). */
  code: string;
  /** Message id in the catalogues: `error.<code>` or `success.<code>` (or {@link UNEXPECTED_ERROR_ID}). */
  messageId: string;
  values?: Record<string, string | number>;
}

export const notifications = proxy<{ items: Notification[] }>({ items: [] });

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function push(
  kind: Notification['kind'],
  code: string,
  messageId: string,
  values?: Record<string, string | number>,
): void {
  // The same error raised by several calls at once (e.g. every reference list failing offline) shows once.
  const same = notifications.items.find((n) => n.kind === kind && n.messageId === messageId);
  if (same && kind === 'error') return;
  const id = nextId++;
  const item: Notification = { id, kind, code, messageId };
  if (values) item.values = values;
  notifications.items.push(item);
  if (kind === 'success') {
    timers.set(
      id,
      setTimeout(() => dismissNotification(id), SUCCESS_DURATION_MS),
    );
  }
}

export const notify = {
  /** A persistent red error; `code` from SPEC.md §8 (`ERROR_CODES`), message id `error.<code>`. */
  error(code: string, values?: Record<string, string | number>): void {
    push('error', code, `error.${code}`, values);
  },
  /** A success shown 5 seconds; `code` from SPEC.md §8 (`SUCCESS_CODES`), message id `success.<code>`. */
  success(code: string, values?: Record<string, string | number>): void {
    push('success', code, `success.${code}`, values);
  },
};

/** Removes one notification (the close button, or a success's timer). */
export function dismissNotification(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  const i = notifications.items.findIndex((n) => n.id === id);
  if (i >= 0) notifications.items.splice(i, 1);
}

/** Removes every notification (route change, SPEC.md §2). */
export function clearNotifications(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  notifications.items.splice(0);
}

function messageValues(
  details: Record<string, unknown> | undefined,
): Record<string, string | number> | undefined {
  if (!details) return undefined;
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(details)) {
    if (typeof v === 'string' || typeof v === 'number') out[k] = v;
  }
  return out;
}

/**
 * Shows the right error for anything a call threw: an {@link ApiFailure} by its code (with its
 * details as message values, e.g. `{maxDays}`), anything else as the generic error (and logged).
 */
export function notifyFailure(error: unknown): void {
  if (error instanceof ApiFailure) {
    const wait = error.details?.retryAfterSeconds;
    // A lock-out grows from 1 minute to an hour (decision 0020): say how long when the server does.
    if (error.code === 'TooManyRequests' && typeof wait === 'number' && wait > 0)
      notify.error('TooManyRequestsWait', { minutes: Math.ceil(wait / 60) });
    else notify.error(error.code, messageValues(error.details));
    return;
  }
  console.error(error);
  push('error', 'unexpected', UNEXPECTED_ERROR_ID);
}
