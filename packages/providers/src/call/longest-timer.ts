/** The longest delay one Node timer holds (2^31 − 1 ms, 24.8 days); a longer one fires after 1 ms. */
export const LONGEST_TIMER_MS = 2_147_483_647;
