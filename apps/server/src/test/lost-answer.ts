import type { PaymentProvider } from '../plugins/payments/provider';

/**
 * The real provider whose charges go through (and, for the local provider, are recorded) but
 * whose answer never arrives: the worst moment to cut a payment, as a crash or a dropped
 * connection right after the bank said yes.
 */
export function answerLost(real: PaymentProvider): PaymentProvider {
  const lost = new Error('connection reset');
  return Object.assign(Object.create(real) as PaymentProvider, {
    charge: async (input: Parameters<PaymentProvider['charge']>[0]) => {
      await real.charge(input);
      throw lost;
    },
    chargeAndRecord: async (
      ...args: Parameters<NonNullable<PaymentProvider['chargeAndRecord']>>
    ) => {
      // Null: it did not charge (a caller's transaction), so `charge` comes next.
      if ((await real.chargeAndRecord!(...args)) === null) return null;
      throw lost;
    },
  });
}
