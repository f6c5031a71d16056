/**
 * The set-up every report API test file repeated: a test app on a fresh database, a chain loaded
 * into it, named users created and signed in, the app closed after the file; and the GET / POST
 * calls of /api/* made with a user's headers.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type AuthHeaders, createTestApp, type TestApp } from './app.ts';
import { type SignedInUser, signInUsers, type UserSpec } from './report-users.ts';

/** How {@link setUpReportApp} sets a test file up. */
export interface ReportAppOptions<Loaded extends object, Name extends string> {
  /** The password every user of `users` gets. */
  password: string;
  /** The users to create and sign in, by the name the file calls them. */
  users: Record<Name, UserSpec>;
  /** Loads the file's data into the new database; what it returns is spread onto the {@link ReportApp}. */
  load: (database: TestApp['database']) => Promise<Loaded>;
  /** The beforeAll's time limit in milliseconds (the configured hookTimeout when absent). */
  timeout?: number;
}

/**
 * A report API test file's app: `t` (the TestApp), the fields `load` returned, each signed-in
 * user under its name, and the calls below. Its fields are set by the beforeAll that
 * {@link setUpReportApp} registers: read them inside tests and hooks only.
 */
export type ReportApp<Loaded extends object, Name extends string> = {
  t: TestApp;
  /** `GET /api/<path>` (path with its query string) with `headers`. */
  get(headers: AuthHeaders, path: string): Promise<LightMyRequestResponse>;
  /** `POST /api/<path>` with `headers` and the JSON body `payload`. */
  post(headers: AuthHeaders, path: string, payload: object): Promise<LightMyRequestResponse>;
} & Loaded &
  Record<Name, SignedInUser>;

/**
 * Registers the file's beforeAll (creates the test app, runs `load` on its database, creates and
 * signs in `users`, in that order) and afterAll (closes the app, if it was made).
 * @returns the {@link ReportApp}, empty until the beforeAll has run.
 * @throws (in the beforeAll) what `load`, the user creation or a refused sign-in throws.
 */
export function setUpReportApp<Loaded extends object, Name extends string>(
  options: ReportAppOptions<Loaded, Name>,
): ReportApp<Loaded, Name> {
  const api = {
    get: (headers: AuthHeaders, path: string) => api.t.app.inject({ url: `/api/${path}`, headers }),
    post: (headers: AuthHeaders, path: string, payload: object) =>
      api.t.app.inject({ method: 'POST', url: `/api/${path}`, headers, payload }),
  } as ReportApp<Loaded, Name>;
  beforeAll(async () => {
    const t = await createTestApp();
    api.t = t;
    Object.assign(api, await options.load(t.database));
    Object.assign(api, await signInUsers(t, options.password, options.users));
  }, options.timeout);
  afterAll(async () => {
    await api.t?.close();
  });
  return api;
}
