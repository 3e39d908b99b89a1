import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { AcpAgent, AcpClientServices } from '@theia-cli-companion/acp-client/lib/node';
import { AcpAgentQuestions } from './acp-agent-questions';
import { AcpLogger, boundToolCall, boundUpdate } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatClient, StartAcpSessionRequest } from '../common/acp-chat-protocol';
import { AcpFileSystemHost, AcpFileWindow } from './acp-file-system-host';
import { AcpTerminalHost } from './acp-terminal-host';
import { agentLaunchEnvironment } from './agent-launch-environment';
import { timingMark } from '@theia-cli-companion/cli-process/lib/node';
import { AgentWorkRegistry } from '@theia-cli-companion/ai-cli-core/lib/node';

/** How a launched agent reaches its chat: asked on every request, since the chat may change agent meanwhile. */
export interface AcpAgentRoute {
    /** The window, while one is connected. */
    client(): AcpChatClient | undefined;
    /** The window as the file-system host uses it. */
    readonly files: AcpFileWindow;
    /** Whether the chat still talks to this agent: an agent the chat no longer talks to reaches nothing of the window. */
    isCurrent(): boolean;
    /** Refuses what an agent the chat no longer talks to asks of the workspace. */
    checkCurrent(): void;
}

/**
 * Starts a chat's agent process (its definition's command, in the chat's folder) and answers what it
 * asks of the client: updates and permission questions go to the window, file reads and writes to the
 * file-system host, commands to the terminal host, all for the chat that started it.
 */
@injectable()
export class AcpAgentLauncher {

    @inject(ILogger) @named('ai-acp-chat:AcpChatBackend') protected readonly logger: ILogger;
    @inject(AcpTerminalHost) protected readonly terminals: AcpTerminalHost;
    @inject(AcpFileSystemHost) protected readonly files: AcpFileSystemHost;
    @inject(AgentWorkRegistry) protected readonly agentWork: AgentWorkRegistry;

    /** `request.roots` must be resolved already (symlinks): the agent's paths are judged against them. */
    launch(request: StartAcpSessionRequest, route: AcpAgentRoute): AcpAgent {
        return new AcpAgent({
            command: request.agent.command, args: request.agent.args, cwd: request.cwd,
            env: agentLaunchEnvironment(request.agent.command, { ...process.env, ...request.agent.env })
        }, this.services(request, route), this.acpLogger);
    }

    protected get acpLogger(): AcpLogger {
        return {
            debug: message => this.logger.debug(message),
            info: message => this.logger.info(message),
            warn: message => this.logger.warn(message),
            error: message => this.logger.error(message)
        };
    }

    protected services(request: StartAcpSessionRequest, route: AcpAgentRoute): AcpClientServices {
        const chatSessionId = request.chatSessionId;
        const questions = new AcpAgentQuestions(chatSessionId, route).services();
        return {
            // The window renders a few screens of a tool's output however long it is; the rest stays here, on demand.
            onUpdate: (_session, update, toolCall) => {
                timingMark('acp-turn:update-received');
                if (route.isCurrent()) {
                    route.client()?.onSessionUpdate(chatSessionId, boundUpdate(update), toolCall && boundToolCall(toolCall).state);
                    timingMark('acp-turn:update-sent');
                }
            },
            // One agent process per (chat, agent): whatever session it names, the chat is this one.
            onUnsupportedRequest: (_session, method) => route.isCurrent() && route.client()?.onUnsupportedRequest(chatSessionId, method.slice(0, 100)),
            onPermissionWithdrawn: (_session, toolCallId) => route.isCurrent() && route.client()?.permissionWithdrawn(chatSessionId, toolCallId),
            askPermission: async (_session, params, toolCall) => {
                const client = route.client();
                if (!client || !route.isCurrent()) {
                    return { outcome: 'cancelled' };
                }
                return this.whileTheUserAnswers(chatSessionId, () => client.askPermission(chatSessionId, params, boundToolCall(toolCall).state));
            },
            readTextFile: async (_session, params) => {
                route.checkCurrent();
                return this.files.readTextFile(chatSessionId, params, request.roots, route.files);
            },
            writeTextFile: async (_session, params) => {
                route.checkCurrent();
                await this.files.writeTextFile(chatSessionId, params, request.roots, route.files);
            },
            terminals: this.terminalServices(request, route),
            // The chat nests a subagent's work under the tool call that started it (AcpSubagentActivity).
            showsSubagents: true,
            ...questions,
            askQuestion: (session, params, signal) => this.whileTheUserAnswers(chatSessionId, () => questions.askQuestion(session, params, signal))
        };
    }

    /** A turn waiting for the user's answer is not agent work: the workspace is not kept awake for it meanwhile. */
    protected async whileTheUserAnswers<T>(chatSessionId: string, answer: () => Promise<T>): Promise<T> {
        const waiting = this.agentWork.waitForUser(chatSessionId);
        try {
            return await answer();
        } finally {
            waiting.dispose();
        }
    }

    protected terminalServices(request: StartAcpSessionRequest, route: AcpAgentRoute): NonNullable<AcpClientServices['terminals']> {
        const chatSessionId = request.chatSessionId;
        return {
            create: async (_session, params) => {
                route.checkCurrent();
                const started = await this.terminals.create(chatSessionId, params, request.cwd, request.roots);
                this.logger.info(`Chat ${chatSessionId}: the agent runs ${params.command} in terminal ${started.terminalId}`);
                route.client()?.showTerminal(chatSessionId, { ...started, title: `${request.agent.name}: ${[params.command, ...params.args ?? []].join(' ')}` });
                return { terminalId: started.terminalId };
            },
            output: async params => this.terminals.output(chatSessionId, params),
            waitForExit: (params, signal) => this.terminals.waitForExit(chatSessionId, params, signal),
            kill: async params => this.terminals.kill(chatSessionId, params),
            release: async params => this.terminals.release(chatSessionId, params)
        };
    }
}
