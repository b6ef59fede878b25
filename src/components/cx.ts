/** Join class names, skipping empty ones. */
export const cx = (...names: (string | false | undefined)[]): string => names.filter(Boolean).join(' ');
