import { nls } from '@theia/core/lib/common/nls';
import type { AttachmentOutcome } from './prompt/acp-prompt-blocks';

/** One line saying how each attachment reached the agent, and which did not, and why. */
export function describeAttachments(agentName: string, outcomes: readonly AttachmentOutcome[]): string {
    const how = (outcome: AttachmentOutcome) => {
        switch (outcome.sentAs) {
            case 'embedded': return nls.localize('theia-cli-companion/acp-chat/sentEmbedded', '{0} (content)', outcome.label);
            case 'link': return nls.localize('theia-cli-companion/acp-chat/sentLink', '{0} (link: the agent reads it)', outcome.label);
            case 'image': return nls.localize('theia-cli-companion/acp-chat/sentImage', '{0} (image)', outcome.label);
            case 'text': return nls.localize('theia-cli-companion/acp-chat/sentText', '{0} (text)', outcome.label);
            default: return nls.localize('theia-cli-companion/acp-chat/notSent', '{0} not sent: {1}', outcome.label, outcome.reason ?? '');
        }
    };
    return nls.localize('theia-cli-companion/acp-chat/attached', 'Attached for {0}: {1}', agentName, outcomes.map(how).join(' · '));
}
