import type { Deps } from '../../deps';

type CardSavedListener = (userId: number) => Promise<void>;

/**
 * What other features run when a user saves a card (none today: the outstanding balance is
 * paid only when the customer says so, decision 0096). One registry per app, keyed by its Deps
 * object, so it needs no field on Deps and tests with separate apps never share listeners:
 *
 *   // in a feature's routes plugin, at registration:
 *   cardHooks(deps).onCardSaved((userId) => notifySomething(deps, userId));
 *
 * The cards route awaits the listeners after the card is stored (so the card is committed and
 * chargeable), before it answers; a listener's failure is logged and does not undo the card.
 */
export class CardHooks {
  private readonly listeners: CardSavedListener[] = [];

  onCardSaved(listener: CardSavedListener): void {
    this.listeners.push(listener);
  }

  /** Runs every listener in registration order; returns the errors instead of throwing. */
  async cardSaved(userId: number): Promise<unknown[]> {
    const errors: unknown[] = [];
    for (const listener of this.listeners) {
      try {
        await listener(userId);
      } catch (error) {
        errors.push(error);
      }
    }
    return errors;
  }
}

const registries = new WeakMap<Deps, CardHooks>();

export function cardHooks(deps: Deps): CardHooks {
  let hooks = registries.get(deps);
  if (!hooks) {
    hooks = new CardHooks();
    registries.set(deps, hooks);
  }
  return hooks;
}
