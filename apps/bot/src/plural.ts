// One home for the count-and-noun helper: core's, shared with the libraries' sentences.
export { plural } from '@macstats/core/internal';
