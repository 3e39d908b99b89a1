import { expect } from 'chai';
import { Container, ContainerModule, injectable } from '@theia/core/shared/inversify';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { ILogger } from '@theia/core/lib/common/logger';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { IdeCompanionBackendImpl } from './ide-companion-backend-impl';
import { McpSessionContext, McpToolContribution, textResult } from '@theia-cli-companion/ide-companion-server/lib/node/window';
import { WindowServerRegistry } from './window-server-registry';
import { WindowModuleContribution } from './window-module-contribution';
import { connectTestClient, RecordingLogger } from '@theia-cli-companion/ide-companion-server/lib/node/test';

@injectable()
class EchoTools implements McpToolContribution {
    registerTools({ mcp }: McpSessionContext): void {
        mcp.registerTool('echoForSpec', { description: 'echo' }, async () => textResult('echo'));
    }
}

describe('WindowServerRegistry with the extensions that contribute to every window', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    let registry: WindowServerRegistry;
    const backends: IdeCompanionBackendImpl[] = [];

    const setUp = (...contributions: WindowModuleContribution[]) => {
        const container = new Container();
        container.bind(ILogger).toConstantValue(new RecordingLogger() as unknown as ILogger);
        bindContributionProvider(container.bind.bind(container), WindowModuleContribution);
        contributions.forEach(contribution => container.bind(WindowModuleContribution).toConstantValue(contribution));
        container.bind(WindowServerRegistry).toSelf().inSingletonScope();
        container.bind(IdeCompanionBackendImpl).toSelf();
        registry = container.get(WindowServerRegistry);
        return () => {
            const backend = container.get(IdeCompanionBackendImpl);
            backends.push(backend);
            return backend;
        };
    };
    const attach = (backend: IdeCompanionBackendImpl) =>
        backend.attachWindow({ rootUris: [FileUri.create(home.dir).toString()], flavours: ['gemini', 'qwen', 'claude'] });

    beforeEach(() => {
        home = useTemporaryHome();
    });
    afterEach(async () => {
        await Promise.all(backends.splice(0).map(backend => backend.detachWindow()));
        await registry.onStop();
        home.restore();
    });

    it('without IDE mode, a window advertises no CLI and writes no discovery file, and still serves its ACP agents', async () => {
        const newBackend = setUp();
        const backend = newBackend();
        const status = await attach(backend);
        expect(status.flavours).to.deep.equal([]);
        expect(status.discoveryFiles).to.deep.equal([]);
        expect(status.terminalEnvironment).to.deep.equal({});
        const credential = backend.issueAgentCredential('ACP agent Spec')!;
        const client = await connectTestClient(status.port, credential.token);
        expect((await client.client.listTools()).tools.map(tool => tool.name)).to.include('getWorkspaceFolders');
        await client.client.close();
    });

    it('advertises the contributed flavours only, and loads each contributed module once, into every window', async () => {
        let loads = 0;
        const newBackend = setUp({
            flavours: [GeminiCliFlavour],
            loadModule: async () => {
                loads++;
                return new ContainerModule(bind => {
                    bind(EchoTools).toSelf().inSingletonScope();
                    bind(McpToolContribution).toService(EchoTools);
                });
            }
        });
        const [first, second] = [newBackend(), newBackend()];
        const statuses = [await attach(first), await attach(second)];
        expect(statuses.map(status => status.flavours)).to.deep.equal([['gemini'], ['gemini']]);
        expect(loads).to.equal(1);
        for (const [index, backend] of [first, second].entries()) {
            const window = backend.currentWindow!;
            const client = await connectTestClient(statuses[index].port, window.endpointFor('gemini').authToken);
            expect((await client.client.listTools()).tools.map(tool => tool.name)).to.include.members(['echoForSpec', 'openDiff']);
            await client.client.close();
        }
    });
});
