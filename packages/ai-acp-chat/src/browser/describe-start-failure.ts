import { nls } from '@theia/core/lib/common/nls';
import type { AcpStartFailure } from '../common/acp-chat-protocol';

/** Why the agent's session did not start, said so that the user knows what to do. */
export function describeStartFailure(agentName: string, failure: AcpStartFailure): string {
    switch (failure.kind) {
        case 'not-installed':
            return failure.installCommand
                ? nls.localize('theia-cli-companion/acp-chat/notInstalledWithHint',
                    '{0} is not installed ("{1}" was not found). Install it with: {2}', agentName, failure.command, failure.installCommand)
                : nls.localize('theia-cli-companion/acp-chat/notInstalled', '{0} is not installed ("{1}" was not found).', agentName, failure.command);
        case 'auth-required':
            return nls.localize('theia-cli-companion/acp-chat/authRequired', '{0} needs credentials: {1}. It offers: {2}.', agentName, failure.message,
                failure.methods.map(method => method.name).join(', '));
        default:
            return nls.localize('theia-cli-companion/acp-chat/startFailed', '{0} could not start a session: {1}', agentName, failure.message);
    }
}
