import type * as acp from '@agentclientprotocol/sdk';
import { acpSdk } from './acp-sdk';

/**
 * What the client answers when the agent asks. Optional methods the client does not implement are
 * answered "method not found" and must not be advertised in the client capabilities.
 */
export interface AcpClientHandlers {
    sessionUpdate(notification: acp.SessionNotification): void;
    requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
    readTextFile?(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
    writeTextFile?(params: acp.WriteTextFileRequest): Promise<void>;
    createTerminal?(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
    terminalOutput?(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
    waitForTerminalExit?(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
    killTerminal?(params: acp.KillTerminalRequest): Promise<void>;
    releaseTerminal?(params: acp.ReleaseTerminalRequest): Promise<void>;
    /** ACP's elicitation/create (a form or a URL to open); `signal` aborts when the agent withdraws it ($/cancel_request). */
    elicit?(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
    /** The agent's elicitation/complete: the URL question it names is done. */
    elicitationComplete?(params: acp.CompleteElicitationNotification): void;
    /** The client nests a subagent's messages under its tool call: advertised as `_meta["subagent-transcript"]`. */
    readonly showsSubagents?: boolean;
    /**
     * The agent asked for something no handler serves (a method of a newer ACP, or one not advertised):
     * the SDK answers it "method not found" (-32601), as the protocol says; this lets the IDE show it.
     */
    unsupportedRequest?(method: string, sessionId: string | undefined): void;
}

/** The client side of the connection: one handler per method the client serves; `servedMethods` gets their names. */
export function createClientApp(h: AcpClientHandlers, servedMethods: Set<string>): acp.ClientApp {
    const methods = acpSdk().methods.client;
    servedMethods.add(methods.session.requestPermission);
    if (h.readTextFile) {
        servedMethods.add(methods.fs.readTextFile);
    }
    if (h.writeTextFile) {
        servedMethods.add(methods.fs.writeTextFile);
    }
    if (h.createTerminal) {
        [methods.terminal.create, methods.terminal.output, methods.terminal.waitForExit, methods.terminal.kill, methods.terminal.release]
            .forEach(method => servedMethods.add(method));
    }
    if (h.elicit) {
        servedMethods.add(methods.elicitation.create);
    }
    const app = acpSdk().client({ name: 'theia-acp-client' })
        .onNotification(acpSdk().methods.client.session.update, ({ params }) => h.sessionUpdate(params))
        .onRequest(acpSdk().methods.client.session.requestPermission, ({ params, signal }) => h.requestPermission(params, signal));
    if (h.readTextFile) {
        app.onRequest(acpSdk().methods.client.fs.readTextFile, ({ params }) => h.readTextFile!(params));
    }
    if (h.writeTextFile) {
        app.onRequest(acpSdk().methods.client.fs.writeTextFile, async ({ params }) => {
            await h.writeTextFile!(params);
            return {};
        });
    }
    if (h.createTerminal) {
        app.onRequest(acpSdk().methods.client.terminal.create, ({ params }) => h.createTerminal!(params))
            .onRequest(acpSdk().methods.client.terminal.output, ({ params }) => h.terminalOutput!(params))
            .onRequest(acpSdk().methods.client.terminal.waitForExit, ({ params, signal }) => h.waitForTerminalExit!(params, signal))
            .onRequest(acpSdk().methods.client.terminal.kill, async ({ params }) => {
                await h.killTerminal!(params);
                return {};
            })
            .onRequest(acpSdk().methods.client.terminal.release, async ({ params }) => {
                await h.releaseTerminal!(params);
                return {};
            });
    }
    if (h.elicit) {
        app.onRequest(methods.elicitation.create, ({ params, signal }) => h.elicit!(params, signal))
            .onNotification(methods.elicitation.complete, ({ params }) => h.elicitationComplete?.(params));
    }
    return app;
}

/**
 * The capabilities matching the handlers given: advertise only what is answered. Boolean config options are
 * always taken (AcpSession.setConfigOption sends them typed), so agents offer on/off settings as toggles.
 */
export function clientCapabilitiesOf(handlers: AcpClientHandlers): acp.ClientCapabilities {
    return {
        fs: { readTextFile: !!handlers.readTextFile, writeTextFile: !!handlers.writeTextFile },
        terminal: !!handlers.createTerminal,
        session: { configOptions: { boolean: {} } },
        ...(handlers.elicit ? { elicitation: { form: {}, url: {} } } : {}),
        // Not in the ACP schema: Claude Code's adapter otherwise drops a subagent's text (it would read as the main answer).
        ...(handlers.showsSubagents ? { _meta: { 'subagent-transcript': true } } : {})
    };
}
