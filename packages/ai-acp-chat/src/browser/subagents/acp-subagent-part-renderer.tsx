import * as React from '@theia/core/shared/react';
import '../../../src/browser/style/acp-subagent.css';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { nls } from '@theia/core/lib/common/nls';
import type { ChatResponseContent } from '@theia/ai-chat';
import { ChatResponsePartRenderer } from '@theia/ai-chat-ui/lib/browser/chat-response-part-renderer';
import type { ResponseNode } from '@theia/ai-chat-ui/lib/browser/chat-tree-view/chat-view-tree-widget';
import { AcpToolCallContent } from '../acp-tool-call-content';
import { AcpSubagentActivity } from './acp-subagent-activity';

/**
 * A tool call that started a subagent: the call as Theia shows any tool call, and under it what the subagent did
 * (its messages, thoughts and tool calls, each drawn by the renderer Theia's chat would pick for it).
 */
@injectable()
export class AcpSubagentPartRenderer implements ChatResponsePartRenderer<AcpToolCallContent> {
    @inject(ContributionProvider) @named(ChatResponsePartRenderer)
    protected readonly renderers: ContributionProvider<ChatResponsePartRenderer<ChatResponseContent>>;

    canHandle(content: ChatResponseContent): number {
        // Above Theia's tool call renderers (10, and 20 for its own delegation tool).
        return content instanceof AcpToolCallContent && content.subagent ? 30 : -1;
    }

    render(content: AcpToolCallContent, node: ResponseNode): React.ReactNode {
        return <SubagentToolCall content={content} activity={content.subagent!} renderPart={part => this.renderPart(part, node, part === content)} />;
    }

    /** A part as the chat draws it; the call itself by the renderer that would draw it without its subagent. */
    protected renderPart(part: ChatResponseContent, node: ResponseNode, withoutThis: boolean): React.ReactNode {
        let best: ChatResponsePartRenderer<ChatResponseContent> | undefined;
        let bestPriority = -1;
        for (const renderer of this.renderers.getContributions()) {
            const priority = withoutThis && renderer === this ? -1 : renderer.canHandle(part);
            if (priority > bestPriority) {
                best = renderer;
                bestPriority = priority;
            }
        }
        return best?.render(part, node) ?? null;
    }
}

interface SubagentToolCallProps {
    content: AcpToolCallContent;
    activity: AcpSubagentActivity;
    renderPart(part: ChatResponseContent): React.ReactNode;
}

function SubagentToolCall({ content, activity, renderPart }: SubagentToolCallProps): React.ReactElement {
    const [, changed] = React.useReducer((count: number) => count + 1, 0);
    React.useEffect(() => {
        const subscription = activity.onDidChange(changed);
        return () => subscription.dispose();
    }, [activity]);
    // Open while the subagent works, closed once its call is done, unless the user opened or closed it.
    const [chosen, setChosen] = React.useState<boolean | undefined>(undefined);
    const open = chosen ?? !content.finished;
    const steps = activity.children.length;
    return <div className='acp-subagent' data-tool-call-id={content.id}>
        {renderPart(content)}
        <details className='acp-subagent-activity' open={open} onToggle={event => {
            const nowOpen = (event.currentTarget as HTMLDetailsElement).open;
            if (nowOpen !== open) {
                setChosen(nowOpen);
            }
        }}>
            <summary className='acp-subagent-summary'>
                <span className='codicon codicon-hubot' />
                {steps === 1
                    ? nls.localize('theia-cli-companion/acp-chat/subagentOneStep', 'What the subagent did (1 step)')
                    : nls.localize('theia-cli-companion/acp-chat/subagentSteps', 'What the subagent did ({0} steps)', steps)}
            </summary>
            <div className='acp-subagent-parts'>
                {activity.children.map((part, index) => <React.Fragment key={index}>{renderPart(part)}</React.Fragment>)}
            </div>
        </details>
    </div>;
}
