/** Codes of the errors this package throws (each is in the README's error table). */
export type RunCmdErrorCode = 'INVALID_OPTION';
