// Lint and format rules, in the spirit of Theia's own (eclipse-theia/theia's configs/*.eslintrc.json):
// type-aware TypeScript checks, import hygiene, the runtime-import rule (common code imports neither
// browser nor node code), public entry points between packages, Theia's nls rule, and the layout that
// `npm run lint -- --fix` applies (4 spaces, single quotes, semicolons, 180 columns at most).
import * as fs from 'node:fs';
import * as path from 'node:path';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import stylistic from '@stylistic/eslint-plugin';
import companion from './configs/eslint-plugin/index.mjs';

/**
 * Another package is reached through its entry points only: `@theia-cli-companion/<pkg>/lib/{common,browser,node}`
 * (and `…/test` for test helpers, `lib/node/window` for what is loaded into a window's graph on its first use).
 */
const DEEP_IMPORT = {
    regex: '^@theia-cli-companion/[^/]+(/(?!lib/((common|browser|node)(/test)?|node/window)$).*)?$',
    message: 'Import another package through its entry points: @theia-cli-companion/<pkg>/lib/common, lib/browser or lib/node '
        + '(lib/<runtime>/test for test helpers, lib/node/window for a window\'s graph).'
};
const NO_BROWSER = [{ group: ['**/browser', '**/browser/**'], message: 'This runtime must not import browser code (Theia\'s runtime-import rule).' }];
const NO_NODE = [{ group: ['**/node', '**/node/**'], message: 'This runtime must not import node code (Theia\'s runtime-import rule).' }];
const restrictedImports = (...patterns) => ['error', { patterns: [DEEP_IMPORT, ...patterns] }];
const TESTS = ['**/*.spec.ts', '**/*.slow-spec.ts', '**/test/**'];
const PACKAGES = fs.readdirSync(path.join(import.meta.dirname, 'packages'));

export default tseslint.config(
    { ignores: ['**/lib/**', '**/node_modules/**', 'browser-app/**', 'test/bench-apps/**', 'test-results/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
    {
        files: ['packages/*/src/**/*.{ts,tsx}', 'test/src/**/*.ts', 'test/bench-floor/src/**/*.ts', 'test/theia-api-gap/src/**/*.ts', 'test/theia-cloud-monitor-stand-in/src/**/*.ts'],
        extends: [tseslint.configs.base],
        languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
        plugins: { 'import-x': importX, '@stylistic': stylistic, 'theia-cli-companion': companion },
        settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.d.ts'] } } },
        rules: {
            // Theia's loggers and notifications answer with promises that nobody needs to await.
            '@typescript-eslint/no-floating-promises': ['error', {
                ignoreVoid: true,
                allowForKnownSafeCalls: [{ from: 'package', package: '@theia/core', name: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'log'] }]
            }],
            '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
            '@typescript-eslint/await-thenable': 'error',
            '@typescript-eslint/no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
            '@typescript-eslint/no-explicit-any': 'error',
            '@typescript-eslint/consistent-type-assertions': 'error',
            'import-x/no-duplicates': 'error',
            'import-x/no-extraneous-dependencies': ['error', { devDependencies: false, peerDependencies: true }],
            'import-x/no-self-import': 'error',
            'no-restricted-imports': restrictedImports(),
            'no-var': 'error',
            'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
            'eqeqeq': ['error', 'always', { null: 'ignore' }],
            'no-throw-literal': 'error',
            'theia-cli-companion/localization-check': ['error', { areas: { 'ai-cli-core': 'cli-core', 'ai-cli-ide-companion': 'ide-companion', 'ai-acp-chat': 'acp-chat', 'ai-agent-tasks': 'agent-tasks' } }],
            '@stylistic/indent': ['error', 4, { SwitchCase: 1, ignoredNodes: ['PropertyDefinition[decorators]', 'TSUnionType', 'TSIntersectionType'] }],
            '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
            '@stylistic/semi': ['error', 'always'],
            '@stylistic/comma-dangle': ['error', 'never'],
            '@stylistic/brace-style': ['error', '1tbs', { allowSingleLine: true }],
            '@stylistic/eol-last': 'error',
            '@stylistic/no-trailing-spaces': 'error',
            '@stylistic/no-multiple-empty-lines': ['error', { max: 1 }],
            '@stylistic/max-len': ['error', { code: 180, ignoreUrls: true, ignoreRegExpLiterals: true }],
            '@stylistic/arrow-parens': ['error', 'as-needed'],
            '@stylistic/space-before-blocks': 'error',
            '@stylistic/keyword-spacing': 'error',
            '@stylistic/member-delimiter-style': 'error',
            '@stylistic/type-annotation-spacing': 'error'
        }
    },
    { files: ['packages/*/src/common/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': restrictedImports(...NO_BROWSER, ...NO_NODE) } },
    { files: ['packages/*/src/browser/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': restrictedImports(...NO_NODE) } },
    { files: ['packages/*/src/node/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': restrictedImports(...NO_BROWSER) } },
    // Theia's chat opens every link of a markdown part (command: included): what an ACP agent shapes is rendered by agentMarkdownHtml.
    {
        files: ['packages/ai-acp-chat/src/browser/**/*.{ts,tsx}'],
        ignores: ['packages/ai-acp-chat/src/browser/agent-markdown/**', ...TESTS.map(glob => `packages/ai-acp-chat/src/${glob}`)],
        rules: {
            'no-restricted-syntax': ['error', {
                selector: 'NewExpression[callee.name="MarkdownChatResponseContentImpl"]',
                message: 'A markdown part of the ACP chat is an AgentMarkdownContent: its links go only to the web and into the workspace folders.'
            }, {
                selector: 'NewExpression[callee.name="QuestionResponseContentImpl"]:not([arguments.0.callee.name="markdownText"])',
                message: 'A question of the ACP chat is rendered as markdown with its links: pass its text through markdownText.'
            }]
        }
    },
    // Rooms with one job: a file past 400 lines or a function past 60 usually holds two things. Warnings, so that a
    // change is never blocked mid-way; `npm run lint` shows them. No file exceeds them today: one that justly must is
    // named in an override below this one, with the reason.
    {
        files: ['packages/*/src/**/*.{ts,tsx}', 'test/src/**/*.ts'],
        rules: { 'max-lines': ['warn', { max: 400 }] }
    },
    {
        // Not for specs and test helpers (`**/test/**`): a describe block is a list of tests, not a function that does too much.
        files: ['packages/*/src/**/*.{ts,tsx}', 'test/src/**/*.ts'],
        ignores: TESTS.flatMap(glob => [`packages/*/src/${glob}`, `test/src/${glob}`]),
        rules: { 'max-lines-per-function': ['warn', { max: 60, skipBlankLines: true, skipComments: true }] }
    },
    // Tests may also use the repository's dev dependencies (mocha, chai, fast-check) from the root package.json.
    ...[...PACKAGES.map(name => `packages/${name}`), 'test'].map(dir => ({
        files: dir === 'test' ? ['test/src/**'] : TESTS.map(glob => `${dir}/src/${glob}`),
        rules: { 'import-x/no-extraneous-dependencies': ['error', { devDependencies: true, packageDir: [path.join(import.meta.dirname, dir), import.meta.dirname] }] }
    }))
);
