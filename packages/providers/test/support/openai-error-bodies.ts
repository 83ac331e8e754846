/**
 * The error responses every OpenAI API shares (Chat Completions and
 * Responses): the `{ error: { message, type, param, code } }` body and the
 * recorded 401/429/500 fixtures. One copy, used by both conformance configs.
 */
import { jsonFixture } from './fixtures.ts';

/** The error-related fields of a provider harness for an OpenAI endpoint. */
export const openAIErrorResponses = {
  sentKey: (request: { headers: Record<string, unknown> }) => String(request.headers['authorization']).replace(/^Bearer /, ''),
  error: (status: number, message: string, headers?: Record<string, string>) => ({
    status,
    ...(headers ? { headers } : {}),
    body: { error: { message, type: 'invalid_request_error', param: null, code: null } },
  }),
  authFailure: { status: 401, body: jsonFixture('openai/error-401.json') },
  rateLimited: { status: 429, body: jsonFixture('openai/error-429.json') },
  serverError: { status: 500, body: jsonFixture('openai/error-500.json') },
};
