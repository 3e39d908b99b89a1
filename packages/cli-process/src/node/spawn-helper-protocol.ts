import { z } from 'zod';

const Bytes = z.custom<Uint8Array>(value => value instanceof Uint8Array, 'expected bytes');

/** A command the helper is asked to run: an absolute executable, no shell, the whole environment given. */
export const SpawnHelperRequestSchema = z.object({
    id: z.number().int().nonnegative(),
    command: z.string().min(1).refine(command => command.startsWith('/'), 'the command must be an absolute path'),
    args: z.array(z.string()),
    cwd: z.string().min(1).optional(),
    env: z.record(z.string()),
    input: Bytes.optional()
});
export type SpawnHelperRequest = z.infer<typeof SpawnHelperRequestSchema>;

/** How a command ended (`code` null when a signal ended it), with everything it wrote; or why it could not start. */
export const SpawnHelperResponseSchema = z.union([
    z.object({
        id: z.number().int().nonnegative(),
        code: z.number().int().nullable(),
        signal: z.string().nullable(),
        stdout: Bytes,
        stderr: Bytes
    }),
    z.object({ id: z.number().int().nonnegative(), error: z.string() })
]);
export type SpawnHelperResponse = z.infer<typeof SpawnHelperResponseSchema>;
