import { inject, injectable } from '@theia/core/shared/inversify';
import { Deferred } from '@theia/core/lib/common/promise-util';
import { ChatAgent, ChatAgentLocation, MarkdownChatResponseContentImpl, MutableChatRequestModel } from '@theia/ai-chat';
import type { LanguageModelRequirement, PromptVariantSet } from '@theia/ai-core';
import { BENCH_FLOOR_CHAT_AGENT, BenchFloorChatClient, BenchFloorChatService } from '../common/bench-floor-chat-protocol';

/** The page's side of the floor chat: the texts the backend sends back, handed to the request waiting for each. */
@injectable()
export class BenchFloorChatClientImpl implements BenchFloorChatClient {
    readonly waiting = new Map<string, (text: string) => void>();

    onText(requestId: string, text: string): void {
        this.waiting.get(requestId)?.(text);
        this.waiting.delete(requestId);
    }
}

/**
 * Bench only: the least a backend-driven Theia AI chat agent does with a message. It sends the message's text to
 * its backend over Theia's RPC and shows the text the backend streams back in the response: the floor a chat turn
 * of any such agent stands on, measured beside the ACP chat's.
 */
@injectable()
export class BenchFloorChatAgent implements ChatAgent {
    readonly id = BENCH_FLOOR_CHAT_AGENT;
    readonly name = BENCH_FLOOR_CHAT_AGENT;
    readonly description = 'Bench only: echoes the message through its backend.';
    readonly locations = [ChatAgentLocation.Panel];
    readonly variables: string[] = [];
    readonly prompts: PromptVariantSet[] = [];
    readonly languageModelRequirements: LanguageModelRequirement[] = [];
    readonly agentSpecificVariables = [];
    readonly functions: string[] = [];

    @inject(BenchFloorChatService) protected readonly service: BenchFloorChatService;
    @inject(BenchFloorChatClientImpl) protected readonly client: BenchFloorChatClientImpl;

    async invoke(request: MutableChatRequestModel): Promise<void> {
        const text = request.request.text.replace(/^@\S+\s*/, '');
        const answered = new Deferred<string>();
        this.client.waiting.set(request.id, reply => answered.resolve(reply));
        await this.service.echo(request.id, text);
        request.response.response.addContent(new MarkdownChatResponseContentImpl(await answered.promise));
        request.response.complete();
    }
}
