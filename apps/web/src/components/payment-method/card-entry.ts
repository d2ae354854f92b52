/** What every card entry form (local or Stripe) offers its panel. */
export type CardEntryProps = {
  submitLabel: string;
  /** Turns the entered card into a provider token; errors are shown by the form itself. */
  onToken: (token: string) => Promise<void>;
  onCancel?: () => void;
};
