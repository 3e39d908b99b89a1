import type { ZodError } from 'zod';

/**
 * What a zod validation found wrong, for a person: `path: message` per issue, joined with "; ".
 * An issue about the whole value is named `whole` ("arguments", "entry", "request", …). Schemas
 * whose messages read on from the field's name ("name must be …") pass `' '` as `separator`.
 */
export function formatZodIssues(error: ZodError, whole = 'value', separator = ': '): string {
    return error.issues.map(issue => `${issue.path.join('.') || whole}${separator}${issue.message}`).join('; ');
}
