import * as acp from '@agentclientprotocol/sdk';
import { untilExists } from './fake-agent-files';

type Client = acp.AgentRequestContext<acp.PromptRequest>['client'];

/**
 * Asks permission to run `rm -rf build` and waits; a client that cancels the turn must answer the request `cancelled`.
 * `withdrawn`: the agent withdraws the request ($/cancel_request) once `withdrawFile` exists. Says what it got.
 */
export async function askPermission(client: Client, sessionId: string, kind: string | undefined, withdrawFile: string): Promise<{ said: string; stopReason: acp.StopReason }> {
    const controller = new AbortController();
    if (kind === 'withdrawn') {
        void untilExists(withdrawFile).then(() => controller.abort());
    }
    const answer = await client.request(acp.methods.client.session.requestPermission, {
        sessionId, toolCall: { toolCallId: 'ask-1', title: 'rm -rf build', kind: 'execute' },
        options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }]
    }, { cancellationSignal: controller.signal }).catch((error: unknown) => {
        if (!controller.signal.aborted) {
            throw error;
        }
        return { outcome: { outcome: 'cancelled' } as acp.RequestPermissionOutcome };
    });
    // A withdrawn request is over for the agent, whatever the client still answers (cancellation is cooperative).
    const outcome = controller.signal.aborted ? { outcome: 'withdrawn' } : answer.outcome;
    return {
        said: `permission: ${JSON.stringify(outcome)}`,
        stopReason: answer.outcome.outcome === 'cancelled' && !controller.signal.aborted ? 'cancelled' : 'end_turn'
    };
}

