/**
 * Parsing of route search and path params for route OPTIONS (validateSearch, params.parse).
 * Route options stay in the start-up bundle even with autoCodeSplitting (only components and
 * loaders are split), so they must not pull zod in: zod alone would put the login route over its
 * 150 kB budget (issue #2 §7). See docs/decisions/0003-route-params-without-zod.md.
 */
import { notFound } from '@tanstack/react-router';

/** The string value of `search[key]`, or undefined when absent or not a string. */
export function optionalString(search: Record<string, unknown>, key: string): string | undefined {
  const value = search[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * A path param that must be a positive whole number (ids such as a site or a ticket).
 * @throws TanStack Router's notFound() otherwise, so the not-found screen shows.
 */
export function positiveIntParam(value: string | undefined): number {
  const n = Number(value);
  if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0) throw notFound();
  return n;
}
