import { AcpChat } from '../hosts/acp-chat-view';
import { createSandbox, createWorkspace, Sandbox } from './sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';

/**
 * One sandbox, backend and browser window with its chat view for a `describe` block of chat tests,
 * created before the block and stopped after it by the mocha hooks {@link AcpChatTestbed.install}
 * registers. `prepare` runs after the sandbox exists and before the backend starts.
 */
export class AcpChatTestbed {
    sandbox: Sandbox;
    workspace: string;
    backend: TheiaBackend;
    window: TheiaWindow;
    chat: AcpChat;

    /** `app`: the backend's entry of another app than browser-app (one the test composes), asked for when the block starts. */
    static install(files: Record<string, string>, prepare?: (sandbox: Sandbox, workspace: string) => void, theiaSettings?: Record<string, unknown>,
        app?: () => string): AcpChatTestbed {
        const bed = new AcpChatTestbed();
        before(async () => {
            bed.sandbox = createSandbox(theiaSettings);
            bed.workspace = createWorkspace(bed.sandbox, 'project', files);
            prepare?.(bed.sandbox, bed.workspace);
            bed.backend = new TheiaBackend(bed.sandbox, bed.workspace, ...app ? [app()] : []);
            await bed.backend.start();
            bed.window = await TheiaWindow.open(bed.sandbox, bed.backend.url);
            bed.chat = new AcpChat(bed.window, bed.backend);
        });
        after(async () => {
            await bed.window?.close();
            await bed.backend?.stop();
            bed.sandbox?.dispose();
        });
        return bed;
    }
}
