/** Words that name where a rule came from instead of the rule (see source-words.mjs). */
export declare const SOURCE_WORDS: RegExp;
