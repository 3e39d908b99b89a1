import { inject, injectable, named } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import type { InstalledAcpAgent } from '@theia-cli-companion/acp-client/lib/common';
import { AcpRegistryBackend } from '../../common/acp-registry-protocol';

/** The agents this user installed from an ACP Registry, as the backend last listed them. */
@injectable()
export class AcpRegistryAgents {

    @inject(AcpRegistryBackend) protected readonly backend: AcpRegistryBackend;
    @inject(ILogger) @named('ai-acp-chat:AcpRegistryAgents') protected readonly logger: ILogger;

    protected current: readonly InstalledAcpAgent[] = [];
    protected currentProblems: readonly string[] = [];
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    get installed(): readonly InstalledAcpAgent[] {
        return this.current;
    }

    /** Damaged install records, one sentence each. */
    get problems(): readonly string[] {
        return this.currentProblems;
    }

    /** Lists them again (after an install, an update or a removal); a listing that fails keeps the last one. */
    async refresh(): Promise<void> {
        try {
            const { agents, problems } = await this.backend.installed();
            this.current = agents;
            this.currentProblems = problems;
            problems.forEach(problem => this.logger.warn(problem));
            this.onDidChangeEmitter.fire();
        } catch (error) {
            this.logger.error(`The agents installed from the ACP Registry could not be listed: ${error instanceof Error ? error.message : error}`);
        }
    }
}
