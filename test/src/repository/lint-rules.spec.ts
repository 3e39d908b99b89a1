import { expect } from 'chai';
import * as path from 'path';
import { ESLint } from 'eslint';

const REPO = path.resolve(__dirname, '..', '..', '..');

/**
 * The repository's own lint rules (eslint.config.mjs), applied to code as if it were the file at
 * `file`: the rules that need type information are left out, everything else is the real config.
 */
async function problems(file: string, code: string): Promise<string[]> {
    const eslint = new ESLint({
        cwd: REPO,
        overrideConfig: {
            languageOptions: { parserOptions: { projectService: false } },
            rules: {
                '@typescript-eslint/no-floating-promises': 'off',
                '@typescript-eslint/no-misused-promises': 'off',
                '@typescript-eslint/await-thenable': 'off'
            }
        }
    });
    const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
    return result.messages.map(message => `${message.ruleId}: ${message.message}`);
}

describe('Lint rules', function (): void {
    this.timeout(60_000);

    it('refuse a deep import of another package, and accept its entry points', async () => {
        const deep = await problems('packages/ai-acp-chat/src/browser/probe.ts',
            'import { DiffReviewService } from \'@theia-cli-companion/ai-cli-core/lib/browser/diff-review/diff-review-service\';\n'
            + 'export const probe = DiffReviewService;\n');
        expect(deep.join('\n')).to.match(/^no-restricted-imports: .*entry points/);
        expect(await problems('packages/ai-acp-chat/src/browser/probe.ts',
            'import { DiffReviewService } from \'@theia-cli-companion/ai-cli-core/lib/browser\';\nexport const probe = DiffReviewService;\n')).to.deep.equal([]);
    });

    it('keep each runtime to its own imports: common imports neither browser nor node code', async () => {
        expect((await problems('packages/ai-agent-tasks/src/common/probe.ts',
            'import { AgentTaskManager } from \'../node/agent-task-manager\';\nexport const probe = AgentTaskManager;\n')).join('\n'))
            .to.match(/no-restricted-imports: .*must not import node code/);
        expect((await problems('packages/ai-cli-ide-companion/src/node/probe.ts',
            'import { ApplicationShell } from \'@theia/core/lib/browser/shell/application-shell\';\nexport const probe = ApplicationShell;\n')).join('\n'))
            .to.match(/no-restricted-imports: .*must not import browser code/);
    });

    it('refuse an import the package does not declare', async () => {
        expect((await problems('packages/gemini-headless-protocol/src/common/probe.ts',
            'import { z } from \'zod\';\nimport { McpServer } from \'@modelcontextprotocol/sdk/server/mcp.js\';\nexport const probe = [z, McpServer];\n')).join('\n'))
            .to.match(/import-x\/no-extraneous-dependencies: '@modelcontextprotocol\/sdk' should be listed/)
            .and.not.to.match(/'zod'/);
    });

    it('keep the ACP chat\'s markdown parts and questions to the agent-markdown rendering (no command: links from an agent)', async () => {
        const found = await problems('packages/ai-acp-chat/src/browser/probe.ts', [
            'import { MarkdownChatResponseContentImpl, QuestionResponseContentImpl } from \'@theia/ai-chat\';',
            'import { markdownText } from \'./agent-markdown/markdown-text\';',
            'export const part = new MarkdownChatResponseContentImpl(\'[x](command:y)\');',
            'export const raw = new QuestionResponseContentImpl(\'[x](command:y)\', [], undefined as never, () => undefined);',
            'export const safe = new QuestionResponseContentImpl(markdownText(\'[x](command:y)\'), [], undefined as never, () => undefined);',
            ''
        ].join('\n'));
        expect(found.filter(problem => problem.startsWith('no-restricted-syntax'))).to.deep.equal([
            'no-restricted-syntax: A markdown part of the ACP chat is an AgentMarkdownContent: its links go only to the web and into the workspace folders.',
            'no-restricted-syntax: A question of the ACP chat is rendered as markdown with its links: pass its text through markdownText.'
        ]);
    });

    it('hold every package to Theia\'s nls rule: namespaced literal keys, one default text per key', async () => {
        const found = await problems('packages/ai-agent-tasks/src/browser/probe.ts', [
            'import { nls } from \'@theia/core/lib/common/nls\';',
            'export const a = nls.localize(\'plainKey\', \'Text\');',
            'export const other = nls.localize(\'theia-cli-companion/acp-chat/probeKey\', \'Text\');',
            'export const b = nls.localize(\'theia-cli-companion/agent-tasks/probeKey\', \'One text\');',
            'export const c = nls.localize(\'theia-cli-companion/agent-tasks/probeKey\', \'Another text\');',
            ''
        ].join('\n'));
        expect(found).to.deep.equal([
            'theia-cli-companion/localization-check: The nls key "plainKey" is not of the form theia-cli-companion/<area>/<name>',
            'theia-cli-companion/localization-check: The nls key theia-cli-companion/acp-chat/probeKey is not in this package\'s area, theia-cli-companion/agent-tasks/',
            'theia-cli-companion/localization-check: The nls key theia-cli-companion/agent-tasks/probeKey already has the default text "One text" '
            + `(${path.join(REPO, 'packages/ai-agent-tasks/src/browser/probe.ts')}:4)`
        ]);
    });

    it('warn of a file past 400 lines and of a function past 60 (not of a spec\'s describe block)', async () => {
        const longFunction = ['export function long(): number {', '    let total = 0;', ...Array.from({ length: 60 }, (_, i) => `    total += ${i};`),
            '    return total;', '}', ''];
        const warnings = (found: string[]) => found.filter(problem => problem.startsWith('max-lines'));
        expect(warnings(await problems('packages/ai-agent-tasks/src/node/probe.ts', longFunction.join('\n')))).to.deep.equal([
            'max-lines-per-function: Function \'long\' has too many lines (64). Maximum allowed is 60.'
        ]);
        const longFile = Array.from({ length: 401 }, (_, i) => `export const value${i} = ${i};`).concat('').join('\n');
        expect(warnings(await problems('test/src/support/probe.ts', longFile))).to.deep.equal(['max-lines: File has too many lines (401). Maximum allowed is 400.']);
        const longDescribe = ['describe(\'probe\', () => {', ...Array.from({ length: 70 }, (_, i) => `    it('case ${i}', () => undefined);`), '});', ''];
        expect(warnings(await problems('packages/ai-agent-tasks/src/node/probe.spec.ts', longDescribe.join('\n')))).to.deep.equal([]);
    });
});
