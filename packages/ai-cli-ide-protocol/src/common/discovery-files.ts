import { z } from 'zod';

export const IdeInfoSchema = z.object({
    name: z.string().min(1),
    displayName: z.string().min(1)
});
export type IdeInfo = z.infer<typeof IdeInfoSchema>;

/** A command the CLI may spawn to reach the companion over MCP stdio when HTTP fails. */
export const StdioConfigSchema = z.object({
    command: z.string().min(1),
    args: z.array(z.string())
}).strict();
export type StdioConfig = z.infer<typeof StdioConfigSchema>;

const port = z.number().int().min(1).max(65535);

/**
 * Ours alone, every CLI ignores it: the process that wrote a discovery file, so that a later backend
 * removes the file only when it can prove that process gone. A PID alone proves nothing: it is reused
 * after a restart, and in another PID namespace (a container sharing `~/.qwen`, `~/.claude` or TMPDIR)
 * the same number names another process.
 */
export const DiscoveryFileWriterSchema = z.object({
    /** The writer's PID namespace, `pid:[4026531836]`; absent where there is no /proc (macOS). */
    pidNamespace: z.string().min(1).max(100).optional(),
    /** Its PID inside that namespace. */
    pid: z.number().int().positive(),
    /** Field 22 of `/proc/<pid>/stat` (clock ticks after boot): a reused PID has another; absent without /proc. */
    startTime: z.number().int().nonnegative().optional()
}).strict();
export type DiscoveryFileWriter = z.infer<typeof DiscoveryFileWriterSchema>;

/** `os.tmpdir()/gemini/ide/gemini-ide-server-<PID>-<PORT>.json` */
export const GeminiDiscoveryFileSchema = z.object({
    port,
    workspacePath: z.string(),
    authToken: z.string().min(1),
    ideInfo: IdeInfoSchema,
    stdio: StdioConfigSchema.optional(),
    theiaCompanion: DiscoveryFileWriterSchema.optional()
}).strict();
export type GeminiDiscoveryFile = z.infer<typeof GeminiDiscoveryFileSchema>;

/** `${QWEN_HOME:-~/.qwen}/ide/<PORT>.lock` */
export const QwenLockFileSchema = z.object({
    port,
    workspacePath: z.string(),
    authToken: z.string().min(1),
    /** A PID that lives exactly as long as the server: the client deletes locks whose ppid is dead. */
    ppid: z.number().int().positive(),
    ideName: z.string().min(1),
    ideInfo: IdeInfoSchema,
    stdio: StdioConfigSchema.optional(),
    theiaCompanion: DiscoveryFileWriterSchema.optional()
}).strict();
export type QwenLockFile = z.infer<typeof QwenLockFileSchema>;

/** Any discovery file body: what the stdio bridge needs to reach the server. */
export const DiscoveryEndpointSchema = z.object({
    port,
    authToken: z.string().min(1)
}).passthrough();
