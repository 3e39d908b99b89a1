import { inject, injectable } from 'inversify';
import type { IdeTransport } from '@theia-cli-companion/cli-process/lib/common';
import type { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { CliFlavour, createAuthToken } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import type { SessionCredential } from '../../common/window-protocol';
import { WindowServerOptions } from '../window-server-options';

/**
 * The secrets of one window: one per advertised flavour (in its discovery file; a flavour turned off
 * loses its secret) and one per ACP agent the window started (handed to it, never written to disk).
 * Each secret opens the endpoint of its holder's transport only.
 */
@injectable()
export class WindowCredentials {
    protected readonly flavourTokens = new Map<CliFlavourId, string>();
    /** One object per flavour, so that the sessions of a flavour can be found by it. */
    protected readonly flavourCredentials = new Map<CliFlavourId, SessionCredential>();
    protected readonly agentTokens = new Map<SessionCredential, string>();

    @inject(WindowServerOptions)
    protected readonly options: WindowServerOptions;

    /** Advertises exactly these flavours; answers the ones turned off, or undefined when nothing changed. */
    enableFlavours(flavourIds: readonly CliFlavourId[]): CliFlavourId[] | undefined {
        const unknown = flavourIds.filter(id => !this.options.flavours.some(flavour => flavour.id === id));
        if (unknown.length) {
            throw new Error(`Unknown CLI flavour(s): ${unknown.join(', ')}; known: ${this.options.flavours.map(flavour => flavour.id).join(', ')}`);
        }
        const removed = [...this.flavourTokens.keys()].filter(id => !flavourIds.includes(id));
        removed.forEach(id => this.flavourTokens.delete(id));
        const added = flavourIds.filter(id => !this.flavourTokens.has(id));
        added.forEach(id => this.flavourTokens.set(id, createAuthToken()));
        return removed.length || added.length ? removed : undefined;
    }

    get advertisedFlavours(): CliFlavour[] {
        return this.options.flavours.filter(flavour => this.flavourTokens.has(flavour.id));
    }

    /** The secret of a flavour's discovery file; empty while the flavour is off. */
    tokenOf(flavourId: CliFlavourId): string {
        return this.flavourTokens.get(flavourId) ?? '';
    }

    /** Every secret the endpoint of a transport accepts now, each with who holds it (agents use Streamable HTTP). */
    credentialsFor(transport: IdeTransport): Map<SessionCredential, string> {
        const credentials = new Map(transport === 'mcp-streamable-http' ? this.agentTokens : []);
        for (const flavour of this.advertisedFlavours) {
            if (flavour.transport === transport) {
                credentials.set(this.credentialOf(flavour), this.flavourTokens.get(flavour.id)!);
            }
        }
        return credentials;
    }

    /** A secret for an ACP agent, listed under `label`. */
    issueAgentToken(label: string): { credential: SessionCredential; token: string } {
        const credential: SessionCredential = { label };
        const token = createAuthToken();
        this.agentTokens.set(credential, token);
        return { credential, token };
    }

    /** The agent is gone: its secret stops working. Answers whether it still had one. */
    revokeAgentToken(credential: SessionCredential): boolean {
        return this.agentTokens.delete(credential);
    }

    protected credentialOf(flavour: CliFlavour): SessionCredential {
        let credential = this.flavourCredentials.get(flavour.id);
        if (!credential) {
            credential = Object.freeze({ flavour: flavour.id, label: flavour.displayName });
            this.flavourCredentials.set(flavour.id, credential);
        }
        return credential;
    }
}
