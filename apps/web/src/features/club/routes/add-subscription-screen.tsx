import { PageTitle } from '../../../components/page-title';

/**
 * /subscription/add (route name addSubscription; query userId, redirect). Both specs show it as
 * navigation and footer only, with no body, so it renders just its (hidden) heading. Staff add
 * a subscription for a customer from the admin user page, where the button stays disabled
 * without a card, with the warning 'Add a payment method to add a new subscription'
 * (NO_CARD_FOR_CLUB_MESSAGE in the contract).
 */
export default function AddSubscriptionScreen() {
  return <PageTitle visuallyHidden>Add Subscription</PageTitle>;
}
