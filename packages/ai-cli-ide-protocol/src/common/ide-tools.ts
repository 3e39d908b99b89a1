import { z } from 'zod';

/** Names of the MCP tools a CLI calls on the companion. */
export namespace IdeToolName {
    export const OPEN_DIFF = 'openDiff';
    export const CLOSE_DIFF = 'closeDiff';
}

export const OpenDiffArgumentsSchema = z.object({
    filePath: z.string().min(1).describe('Absolute path of the file to show a diff for.'),
    newContent: z.string().describe('The proposed new content of the file.')
}).strict();
export type OpenDiffArguments = z.infer<typeof OpenDiffArgumentsSchema>;

export const CloseDiffArgumentsSchema = z.object({
    filePath: z.string().min(1).describe('Absolute path of the file whose diff view should close.'),
    suppressNotification: z.boolean().optional()
        .describe('When true, the IDE sends no ide/diffAccepted or ide/diffRejected for this diff.')
}).strict();
export type CloseDiffArguments = z.infer<typeof CloseDiffArgumentsSchema>;

/** The JSON carried in closeDiff's single text block; the clients `JSON.parse` it. */
export const CloseDiffResultSchema = z.object({
    content: z.string().nullable()
}).strict();
export type CloseDiffResult = z.infer<typeof CloseDiffResultSchema>;
