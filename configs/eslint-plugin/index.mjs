import localizationCheck from './localization-check.mjs';

/** This repository's own lint rules. */
export default {
    meta: { name: 'theia-cli-companion' },
    rules: {
        'localization-check': localizationCheck
    }
};
