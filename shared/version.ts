/** Reported by every server's initialize and health answers. */
export const GATEHOUSE_VERSION = '0.1.0';
