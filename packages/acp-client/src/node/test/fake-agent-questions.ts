import * as acp from '@agentclientprotocol/sdk';
import { untilExists } from './fake-agent-files';

type Client = acp.AgentRequestContext<acp.PromptRequest>['client'];

/** Every kind of field a form question can have, the first one required. */
const FORM: acp.ElicitationSchema = {
    type: 'object', required: ['colour'],
    properties: {
        colour: { type: 'string', title: 'Colour', oneOf: [{ const: 'red', title: 'Red' }, { const: 'blue', title: 'Blue' }] },
        count: { type: 'integer', title: 'How many', minimum: 1, maximum: 3, default: 1 },
        note: { type: 'string', title: 'Note', maxLength: 20 },
        urgent: { type: 'boolean', title: 'Urgent', default: false },
        sizes: { type: 'array', title: 'Sizes', items: { anyOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] } }
    }
};

/**
 * Asks the client a question (elicitation/create) and answers how it went: the answer as JSON, or the error's code.
 * `bad`: a schema with a nested object (not a flat form); `url`: a page to open, completed (elicitation/complete) once
 * the client accepted; `withdrawn`: a form the agent withdraws ($/cancel_request) once $FAKE_AGENT_LOG.withdraw exists.
 */
export async function askQuestion(client: Client, sessionId: string, kind: string | undefined): Promise<string> {
    const params: acp.CreateElicitationRequest = kind === 'url'
        ? { sessionId, mode: 'url', message: 'Sign in to the example server', elicitationId: 'sign-in-1', url: 'https://login.example.com/authorize?state=x' }
        : kind === 'bad'
            ? { sessionId, mode: 'form', message: 'Nested?', requestedSchema: { type: 'object', properties: { inner: { type: 'object' } } } as unknown as acp.ElicitationSchema }
            : { sessionId, mode: 'form', message: 'Which colour, and how many?', requestedSchema: FORM };
    const controller = new AbortController();
    if (kind === 'withdrawn') {
        void untilExists(`${process.env.FAKE_AGENT_LOG}.withdraw`).then(() => controller.abort());
    }
    try {
        const answer = await client.request(acp.methods.client.elicitation.create, params, { cancellationSignal: controller.signal });
        if (controller.signal.aborted) {
            // A client may still answer a withdrawn question (cancellation is cooperative): the agent no longer waits for it.
            return `withdrawn (${answer.action})`;
        }
        if (kind === 'url' && answer.action === 'accept') {
            await client.notify(acp.methods.client.elicitation.complete, { elicitationId: 'sign-in-1' });
        }
        return JSON.stringify(answer);
    } catch (error) {
        return controller.signal.aborted ? 'withdrawn' : `error ${(error as { code?: number }).code}`;
    }
}
