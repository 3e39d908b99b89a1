import { ContainerModule } from '@theia/core/shared/inversify';
import { IDE_MODE_FLAVOURS } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { WindowModuleContribution } from '@theia-cli-companion/ai-cli-core/lib/node';

export default new ContainerModule(bind => {
    bind(WindowModuleContribution).toConstantValue({
        flavours: Object.values(IDE_MODE_FLAVOURS),
        loadModule: async () => (await import('@theia-cli-companion/ide-companion-server/lib/node/window')).claudeWindowModule
    });
});
