import type { Card, SaveCardResponse, SavedCard } from '@paddock/contract/cards';
import type { Db } from '../../db/client';
import type { AuthUser } from '../../plugins/auth';
import { NotFound, ValidationError } from '../../plugins/errors';
import { CardError, type PaymentProvider } from '../../plugins/payments/provider';
import { findCard, findCardOwner, removeCard, replaceCard, type CardRow } from './cards.repo';
import { accessibleUserId } from '../../plugins/user-access';

type Warn = (error: unknown, message: string) => void;

/**
 * Whose card `/users/{id}/card` means: one's own (`me` or one's id), or anyone's for staff with
 * user.change_user. Everyone else gets the 404 an unknown user gets, so ids can't be probed.
 */
export async function cardOwnerId(db: Db, caller: AuthUser, id: 'me' | number): Promise<number> {
  const userId = await accessibleUserId(db, caller, id, ['user.change_user']);
  if (!(await findCardOwner(db, userId))) throw new NotFound();
  return userId;
}

function cardResponse(row: Omit<CardRow, 'userId' | 'provider' | 'createdAt'>): SavedCard {
  return {
    brand: row.brand,
    last4: row.last4,
    exp_month: row.expMonth,
    exp_year: row.expYear,
    postal_code: row.postalCode,
  };
}

export async function getCard(db: Db, payments: PaymentProvider, userId: number): Promise<Card> {
  const row = await findCard(db, userId, payments.kind);
  return row ? cardResponse(row) : {};
}

/** Whose card a SetupIntent saves, as the provider keeps it: checked when it is finished. */
const setupReference = (userId: number) => `user-${userId}`;

/**
 * Saves the card behind a provider token through a SetupIntent for off-session use, replacing
 * (and detaching) the previous one. A card the provider refuses is a 400 with its message, and
 * the previous card stays. When the bank asks for 3-D Secure nothing is saved yet: the answer is
 * the challenge, after which the web sends the `setup_intent` back (`finishCardSetup`).
 */
export async function saveCard(
  db: Db,
  payments: PaymentProvider,
  userId: number,
  body: { token?: string; setup_intent?: string },
  returnUrl: string,
  warn: Warn,
): Promise<SaveCardResponse> {
  const owner = await findCardOwner(db, userId);
  if (!owner) throw new NotFound();
  const existing = await findCard(db, userId, payments.kind);
  let attached;
  try {
    if (body.setup_intent !== undefined) {
      const done = await payments.finishSetup(body.setup_intent);
      // Someone else's setup is as unknown to the caller as a made-up one.
      if (done.reference !== setupReference(userId))
        throw ValidationError.field('setup_intent', 'No such card setup.');
      attached = done.card;
    } else {
      const setup = await payments.setupCard({
        token: body.token ?? '',
        email: owner.email,
        name: `${owner.firstName} ${owner.lastName}`.trim() || owner.email,
        customerRef: existing?.customerRef ?? null,
        reference: setupReference(userId),
        returnUrl,
      });
      if (setup.status === 'requires_action')
        return {
          status: 'requires_action',
          setup_intent: setup.action.intentRef,
          client_secret: setup.action.clientSecret,
          challenge_url: setup.action.challengeUrl,
        };
      attached = setup.card;
    }
  } catch (error) {
    if (error instanceof CardError) throw ValidationError.nonField(error.message);
    throw error;
  }
  const previous = await replaceCard(db, userId, payments.kind, attached);
  if (
    previous &&
    previous.provider === payments.kind &&
    previous.paymentMethodRef !== attached.paymentMethodRef
  ) {
    await detachQuietly(payments, previous, warn);
  }
  return cardResponse(attached);
}

export async function deleteCard(
  db: Db,
  payments: PaymentProvider,
  userId: number,
  warn: Warn,
): Promise<void> {
  const removed = await removeCard(db, userId);
  if (removed && removed.provider === payments.kind) await detachQuietly(payments, removed, warn);
}

/** Our record is what counts; a provider that fails to forget a card is only worth a log line. */
async function detachQuietly(payments: PaymentProvider, card: CardRow, warn: Warn) {
  try {
    await payments.detachCard(card);
  } catch (error) {
    warn(error, 'could not detach the previous card at the payment provider');
  }
}
