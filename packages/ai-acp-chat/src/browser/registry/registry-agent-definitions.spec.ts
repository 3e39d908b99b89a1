import { expect } from 'chai';
import { BUILT_IN_ACP_AGENTS, InstalledAcpAgent } from '@theia-cli-companion/acp-client/lib/common';
import { registryAgentDefinitions, registryMention } from './registry-agent-definitions';

const installed = (id: string, name: string, command = `/home/u/.theia/acp-agents/${id}/1.0.0/bin/agent`): InstalledAcpAgent => ({
    id, name, version: '1.0.0', description: `${name} for tests`, distribution: 'binary', source: `https://example.org/${id}.tar.gz`,
    directory: `/home/u/.theia/acp-agents/${id}/1.0.0`, launch: { command, args: ['--acp'], env: { MODE: 'acp' } }, installedAt: '2026-12-04T00:00:00.000Z'
});

describe('ACP chat: agents installed from the ACP Registry', () => {
    it('are addressed by their registry name as one mention word', () => {
        expect(registryMention('Gemini CLI')).to.equal('Gemini-CLI');
        expect(registryMention('  Mistral  Vibe ')).to.equal('Mistral-Vibe');
        expect(registryMention('Kimi (Moonshot) ✓')).to.equal('Kimi-Moonshot');
        expect(registryMention(`${'a'.repeat(39)} b`)).to.equal('a'.repeat(39));
    });

    it('start exactly what their install recorded', () => {
        const { definitions, problems, registryIds } = registryAgentDefinitions([installed('goose', 'goose')], BUILT_IN_ACP_AGENTS);
        expect(problems).to.deep.equal([]);
        expect([...registryIds]).to.deep.equal([['goose', 'goose']]);
        expect(definitions).to.deep.equal([{
            name: 'goose', command: '/home/u/.theia/acp-agents/goose/1.0.0/bin/agent', args: ['--acp'], env: { MODE: 'acp' },
            description: 'goose for tests (ACP Registry, 1.0.0)', installCommand: 'CLI Companion: Add Agent from ACP Registry…'
        }]);
    });

    it('never replace a built-in, a user\'s agent or each other: one whose name is taken is left out and said so', () => {
        const user = { name: 'Goose', command: 'goose', args: ['acp'], env: {} };
        const { definitions, problems } = registryAgentDefinitions(
            [installed('gemini', 'gemini'), installed('goose', 'goose'), installed('junie', 'Junie'), installed('junie-fork', 'junie')],
            [...BUILT_IN_ACP_AGENTS, user]);
        expect(definitions.map(definition => definition.name)).to.deep.equal(['Junie']);
        expect(problems).to.have.length(3);
        expect(problems[0]).to.equal('The agent "gemini" installed from the ACP Registry is not offered: the chat already has an agent @gemini');
    });

    it('an uvx agent that cannot start says what to install: uv, which brings uvx', () => {
        const agent = { ...installed('minion', 'Minion'), distribution: 'uvx' as const, launch: { command: 'uvx', args: ['minion-code@0.1.5', 'acp'], env: {} } };
        const [definition] = registryAgentDefinitions([agent], []).definitions;
        expect(definition).to.deep.include({ name: 'Minion', command: 'uvx', args: ['minion-code@0.1.5', 'acp'] });
        expect(definition.installCommand).to.match(/^uv \(it brings uvx/);
    });

    it('leave out a record that cannot be started, saying which', () => {
        const { definitions, problems } = registryAgentDefinitions([installed('broken', 'Broken', '   ')], []);
        expect(definitions).to.deep.equal([]);
        expect(problems).to.deep.equal(['The agent "Broken" installed from the ACP Registry is not offered: its record cannot be started']);
    });
});
