import { inject, injectable, named } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import type { InstalledAcpAgent } from '@theia-cli-companion/acp-client/lib/common';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { AcpRegistryBackend } from '../../common/acp-registry-protocol';

/** The agents this user installed from an ACP Registry, as the backend last listed them. */
@injectable()
export class AcpRegistryAgents {

    @inject(AcpRegistryBackend) protected readonly backend: AcpRegistryBackend;
    @inject(ILogger) @named('ai-acp-chat:AcpRegistryAgents') protected readonly logger: ILogger;

    protected current: readonly InstalledAcpAgent[] = [];
    /** By agent id: the CSS class that shows its registry icon. */
    protected readonly iconClasses = new Map<string, string>();
    protected iconStyle?: HTMLStyleElement;
    protected currentProblems: readonly string[] = [];
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    get installed(): readonly InstalledAcpAgent[] {
        return this.current;
    }

    /** The icon class of an installed agent, once its icon was fetched (the chat shows it beside the agent's name). */
    iconClassOf(agentId: string): string | undefined {
        return this.iconClasses.get(agentId);
    }

    /** Damaged install records, one sentence each. */
    get problems(): readonly string[] {
        return this.currentProblems;
    }

    /**
     * Fetches the icons not shown yet (through the backend, as data URLs: the page loads nothing from
     * the registry's hosts) and adds a rule per agent to one style sheet; whether any was added.
     */
    protected async loadIcons(): Promise<boolean> {
        const missing = this.current.filter(agent => agent.icon && !this.iconClasses.has(agent.id));
        const loaded = await Promise.all(missing.map(async agent => ({ id: agent.id, icon: await this.backend.icon(agent.id).catch(() => undefined) })));
        const rules = loaded.filter(({ icon }) => icon && /^data:image\/(svg\+xml|png);base64,[A-Za-z0-9+/=]+$/.test(icon)).map(({ id, icon }) => {
            // Registry ids are slugs ([a-z][a-z0-9-]*): safe in a class name.
            const className = `acp-registry-icon-${id}`;
            this.iconClasses.set(id, `acp-registry-icon ${className}`);
            return `.${className} { display: inline-block; width: 16px; height: 16px; background: url("${icon}") center / contain no-repeat; }`;
        });
        if (!rules.length) {
            return false;
        }
        this.iconStyle ??= document.head.appendChild(document.createElement('style'));
        this.iconStyle.textContent = `${this.iconStyle.textContent ?? ''}\n${rules.join('\n')}`;
        return true;
    }

    /** Lists them again (after an install, an update or a removal); a listing that fails keeps the last one. */
    async refresh(): Promise<void> {
        try {
            const { agents, problems } = await this.backend.installed();
            // The chat registers its agents anew on a change: none when the list is what it was (the usual start).
            const changed = JSON.stringify(agents) !== JSON.stringify(this.current);
            this.current = agents;
            this.currentProblems = problems;
            problems.forEach(problem => this.logger.warn(problem));
            if (changed) {
                this.onDidChangeEmitter.fire();
            }
            // Icons come after: an unreachable icon host never holds back the agents themselves.
            if (await this.loadIcons()) {
                this.onDidChangeEmitter.fire();
            }
        } catch (error) {
            this.logger.error(`The agents installed from the ACP Registry could not be listed: ${describeError(error)}`);
        }
    }
}
