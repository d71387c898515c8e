/** The seed's failure codes; every tool failure carries exactly one of these on the wire. */
export type ResearchErrorCode = 'VALIDATION_ERROR' | 'NOT_FOUND' | 'UPSTREAM_UNAVAILABLE' | 'INTERNAL_ERROR';

/** Thrown by tools and the market cache; the envelope maps it to `{ok:false, error:{code,message}}`. */
export class ResearchError extends Error {
  override name = 'ResearchError';
  constructor(
    readonly code: ResearchErrorCode,
    message: string,
  ) {
    super(message);
  }
}
