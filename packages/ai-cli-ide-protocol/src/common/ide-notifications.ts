import { z } from 'zod';
import { IdeContextSchema } from './ide-context';

/** Methods of the notifications the companion sends to a connected CLI. */
export namespace IdeNotificationMethod {
    export const CONTEXT_UPDATE = 'ide/contextUpdate';
    export const DIFF_ACCEPTED = 'ide/diffAccepted';
    export const DIFF_REJECTED = 'ide/diffRejected';
}

export const ContextUpdateNotificationSchema = z.object({
    method: z.literal(IdeNotificationMethod.CONTEXT_UPDATE),
    params: IdeContextSchema
}).strict();

export const DiffAcceptedNotificationSchema = z.object({
    method: z.literal(IdeNotificationMethod.DIFF_ACCEPTED),
    params: z.object({
        filePath: z.string().min(1),
        /** Exactly the text the user accepted, including their edits to the proposal. */
        content: z.string()
    }).strict()
}).strict();

export const DiffRejectedNotificationSchema = z.object({
    method: z.literal(IdeNotificationMethod.DIFF_REJECTED),
    params: z.object({
        filePath: z.string().min(1)
    }).strict()
}).strict();

export const IdeNotificationSchema = z.discriminatedUnion('method', [
    ContextUpdateNotificationSchema,
    DiffAcceptedNotificationSchema,
    DiffRejectedNotificationSchema
]);
/** A notification as handed to the MCP SDK's `Server.notification()`. */
export type IdeNotification = z.infer<typeof IdeNotificationSchema>;
