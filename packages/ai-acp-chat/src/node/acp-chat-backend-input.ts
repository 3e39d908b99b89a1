import * as fs from 'fs';
import * as path from 'path';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { z } from 'zod';
import type { SharedMcpServer } from '../common/theia-mcp-servers';

/** What the window sends the chat backend, checked here again: the window is a client like any other. */

/** The user's MCP servers as the window sends them (built by `sharedMcpServersOf`). */
export const SharedMcpServersSchema = z.array(z.union([
    z.object({ type: z.literal('http'), name: z.string().min(1), url: z.string().url(), headers: z.array(z.object({ name: z.string(), value: z.string() })) }).strict(),
    z.object({ name: z.string().min(1), command: z.string().min(1), args: z.array(z.string()), env: z.array(z.object({ name: z.string(), value: z.string() })) }).strict()
])).max(100) as z.ZodType<SharedMcpServer[]>;

/** A file path from the window: checked to be absolute and inside the roots where it is used. */
export const FilePathSchema = z.string().min(1).max(4096);
/** A turn's id: the chat request's. */
export const TurnIdSchema = z.string().min(1).max(200);
/** The window's workspace folders now: what a restore writes inside (never the folders a stored checkpoint names). */
export const CurrentRootsSchema = z.array(FilePathSchema.refine(root => path.isAbsolute(root), 'a workspace folder must be an absolute path')).max(100);
export const RestoreOptionsSchema = z.object({
    files: z.array(FilePathSchema).max(100_000).optional(), overwrite: z.array(FilePathSchema).max(100_000), skip: z.array(FilePathSchema).max(100_000),
    dirty: z.array(FilePathSchema).max(100_000).optional(), roots: CurrentRootsSchema
}).strict();

/** A config option's id and value as the window sends them; checked against the agent's own list by the session. */
export const ConfigOptionIdSchema = z.string().min(1).max(200);
export const ConfigOptionValueSchema = z.union([z.string().min(1).max(1000), z.boolean()]);

/** A config option change from the window, checked: its id and value, or an error saying which is wrong. */
export function checkedConfigOption(configId: unknown, value: unknown): { id: string; value: string | boolean } {
    const id = ConfigOptionIdSchema.safeParse(configId);
    const checked = ConfigOptionValueSchema.safeParse(value);
    if (!id.success || !checked.success) {
        throw new Error(`Invalid config option: ${formatZodIssues((id.error ?? checked.error)!, id.success ? 'value' : 'configId')}`);
    }
    return { id: id.data, value: checked.data };
}

/** The workspace folders with their symbolic links resolved (the agent's paths are judged against them); those that do not exist left out. */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
    const resolved = await Promise.all(roots.map(root => fs.promises.realpath(root).catch(() => undefined)));
    return resolved.filter((root): root is string => !!root);
}
