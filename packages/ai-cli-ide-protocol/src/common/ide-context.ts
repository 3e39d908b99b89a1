import { z } from 'zod';

/** The clients keep at most this many open files; we cap before sending so nothing is wasted on the wire. */
export const MAX_OPEN_FILES = 10;
/** The clients truncate `selectedText` to this many UTF-16 code units (16 KiB). */
export const MAX_SELECTED_TEXT_LENGTH = 16384;

/** A 1-based cursor position, as both CLIs expect. */
export const CursorPositionSchema = z.object({
    line: z.number().int().min(1),
    character: z.number().int().min(1)
}).strict();
export type CursorPosition = z.infer<typeof CursorPositionSchema>;

/**
 * A file open in the IDE. Field names and optionality match the clients' own schema
 * (`FileSchema` in @google/gemini-cli-core `ide/types.ts`); `.strict()` guards us against sending a
 * field the client does not know.
 */
export const OpenFileSchema = z.object({
    /** Absolute filesystem path, as the CLI sees it (not a `file://` URI). */
    path: z.string().min(1),
    /** Unix time in milliseconds of when the file was last focused; the CLI sorts by it. */
    timestamp: z.number(),
    isActive: z.boolean().optional(),
    selectedText: z.string().max(MAX_SELECTED_TEXT_LENGTH).optional(),
    cursor: CursorPositionSchema.optional()
}).strict();
export type OpenFile = z.infer<typeof OpenFileSchema>;

export const IdeContextSchema = z.object({
    workspaceState: z.object({
        openFiles: z.array(OpenFileSchema).max(MAX_OPEN_FILES).optional(),
        isTrusted: z.boolean().optional()
    }).strict().optional()
}).strict();
export type IdeContext = z.infer<typeof IdeContextSchema>;
