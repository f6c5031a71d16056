import { describe, expect, it } from 'vitest';
import { DomainError, type DomainErrorKind } from '../../src/server/errors.ts';
import { errorAnswer } from '../../src/server/plugins/error-handler.ts';

describe('a domain error meets HTTP once, in the error plugin', () => {
  const cases: [DomainErrorKind, number][] = [
    ['invalid', 400],
    ['unauthenticated', 401],
    ['forbidden', 403],
    ['notFound', 404],
    ['conflict', 409],
    ['tooManyAttempts', 429],
    ['internal', 500],
    ['upstream', 502],
  ];
  it.each(cases)('kind %s answers %i with its code, message and details', (kind, status) => {
    const answer = errorAnswer(new DomainError(kind, 'MaxReportDays', 'period too long', { maxDays: 31 }));
    expect(answer).toEqual({
      status,
      body: { code: 'MaxReportDays', message: 'period too long', details: { maxDays: 31 } },
    });
  });

  it('leaves details out when there are none', () => {
    expect(errorAnswer(new DomainError('notFound', 'NotFound', 'no such ticket')).body).toEqual({
      code: 'NotFound',
      message: 'no such ticket',
    });
  });

  it('hides the message of anything that is not ours', () => {
    expect(errorAnswer(new Error('relation "secret" does not exist'))).toEqual({
      status: 500,
      body: { code: 'InternalError', message: 'internal error' },
    });
  });
});
