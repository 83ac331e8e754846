/**
 * `http:` of `askloop.config.yaml`: settings of the built-in `tool.http.Fetch`
 * (`builtinPlugin({ http })`, `createHttpTools`' options). Only
 * `specialAddresses`: whether a `net` grant pattern may reach a loopback,
 * private or other special-use address. By default (`named`) only a grant
 * naming the host does, so a CLI user on a private network whose hosts are
 * many (`net:read:*.corp.internal` for its 10.x hosts) needs this to say so
 * once, rather than a grant per host.
 */
import type { HttpToolsOptions } from '@askloop/tools';
import { z } from 'zod';

/** The settings a config file may give `tool.http.Fetch`. */
export type HttpSettings = Pick<HttpToolsOptions, 'specialAddresses'>;

/** The `http:` map: unknown keys refused, as everywhere in the file. */
export const HTTP_SCHEMA = z.strictObject({
  specialAddresses: z
    .enum(['named', 'granted'], {
      error: "expected named (the default: only a grant naming the host, net:read:10.0.0.5, reaches a loopback, private or other special-use address) or granted (any grant covering the host does, patterns such as net:read:*.corp.internal included)",
    })
    .optional(),
}) satisfies z.ZodType<HttpSettings>;
