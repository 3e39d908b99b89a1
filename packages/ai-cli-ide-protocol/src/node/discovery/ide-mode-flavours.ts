import { CliFlavourId } from '../../common/cli-flavour-id';
import { ClaudeCodeFlavour } from './claude-code-flavour';
import { CliFlavour } from './cli-flavour';
import { GeminiCliFlavour } from './gemini-cli-flavour';
import { QwenCodeFlavour } from './qwen-code-flavour';

/** The flavour of every CLI with an IDE mode in the catalogue: the compiler asks for a new CLI's here. */
export const IDE_MODE_FLAVOURS: Readonly<Record<CliFlavourId, CliFlavour>> = Object.freeze({
    gemini: GeminiCliFlavour,
    qwen: QwenCodeFlavour,
    claude: ClaudeCodeFlavour
});
