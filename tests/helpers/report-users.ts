/**
 * Named users for the report tests: created on a TestApp (tests/helpers/app.ts) with one shared
 * password, then signed in, so a test file's `beforeAll` says only who the users are.
 */
import type { AuthHeaders, TestApp, TestUser } from './app.ts';

/** A user created and signed in: its id (the `id` of bo/getReport and the like) and its call headers. */
export interface SignedInUser {
  id: number;
  headers: AuthHeaders;
}

/** A user to create, without its password (signInUsers gives them all the same one). */
export type UserSpec = Omit<TestUser, 'password'>;

/** `manager`: RAPPORTS on every site. */
export const MANAGER: UserSpec = { login: 'manager', droits: ['RAPPORTS'], allSites: true };

/** `lyon`: RAPPORTS on site 2 only (Lyon Part-Dieu in the test chains). */
export const LYON: UserSpec = { login: 'lyon', droits: ['RAPPORTS'], restaurantIds: [2] };

/**
 * Creates every user of `users` (in their key order, each with a profile of its own — see
 * TestApp.createUser), then signs each in with `password`, in the same order.
 * @returns per key of `users`, the user's id and headers.
 * @throws Error when a sign-in is refused (TestApp.signIn); database errors of the creation as they come.
 */
export async function signInUsers<Name extends string>(
  t: TestApp,
  password: string,
  users: Record<Name, UserSpec>,
): Promise<Record<Name, SignedInUser>> {
  const entries = Object.entries(users) as Array<[Name, UserSpec]>;
  const ids: number[] = [];
  for (const [, user] of entries) ids.push(await t.createUser({ ...user, password }));
  const signedIn = {} as Record<Name, SignedInUser>;
  for (const [i, [name, user]] of entries.entries()) {
    signedIn[name] = { id: ids[i]!, headers: await t.signIn(user.login, password) };
  }
  return signedIn;
}
