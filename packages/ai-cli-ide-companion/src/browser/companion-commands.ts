import { Command } from '@theia/core/lib/common/command';
import { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';

const CATEGORY = 'CLI Companion';
const CATEGORY_KEY = 'theia-cli-companion/ide-companion/category';

export namespace CompanionCommands {
    export const SHOW_STATUS = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.showStatus', category: CATEGORY, label: 'Show Status' }, 'theia-cli-companion/ide-companion/showStatus', CATEGORY_KEY);
    export const SHOW_MENU = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.showMenu', category: CATEGORY, label: 'Show Menu' }, 'theia-cli-companion/ide-companion/showMenu', CATEGORY_KEY);
    export const SHOW_LOG = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.showLog', category: CATEGORY, label: 'Show Log' }, 'theia-cli-companion/ide-companion/showLog', CATEGORY_KEY);
    export const COPY_DIAGNOSTICS = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.copyDiagnostics', category: CATEGORY, label: 'Copy Diagnostic Report' }, 'theia-cli-companion/ide-companion/copyDiagnostics', CATEGORY_KEY);
    export const OPEN_SETTINGS = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.openSettings', category: CATEGORY, label: 'Open Settings' }, 'theia-cli-companion/ide-companion/openSettings', CATEGORY_KEY);
    export const TURN_ON = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.turnOn', category: CATEGORY, label: 'Turn On' }, 'theia-cli-companion/ide-companion/turnOn', CATEGORY_KEY);
    export const TURN_OFF = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.turnOff', category: CATEGORY, label: 'Turn Off' }, 'theia-cli-companion/ide-companion/turnOff', CATEGORY_KEY);
    export const RUN: Readonly<Record<CliFlavourId, Command>> = {
        gemini: Command.toLocalizedCommand(
            { id: 'aiCliCompanion.runGemini', category: CATEGORY, label: 'Run Gemini CLI' }, 'theia-cli-companion/ide-companion/runGemini', CATEGORY_KEY),
        qwen: Command.toLocalizedCommand(
            { id: 'aiCliCompanion.runQwen', category: CATEGORY, label: 'Run Qwen Code' }, 'theia-cli-companion/ide-companion/runQwen', CATEGORY_KEY),
        claude: Command.toLocalizedCommand(
            { id: 'aiCliCompanion.runClaude', category: CATEGORY, label: 'Run Claude Code' }, 'theia-cli-companion/ide-companion/runClaude', CATEGORY_KEY)
    };
    export const SEND_TO_CLAUDE = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.sendSelectionToClaude', category: CATEGORY, label: 'Send Selection to Claude Code' },
        'theia-cli-companion/ide-companion/sendSelectionToClaude', CATEGORY_KEY);
}
