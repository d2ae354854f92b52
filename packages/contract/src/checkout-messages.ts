// Texts of the checkout that the booking screen shows before its checkout code loads: kept
// apart from checkout.ts so they come without zod and the schemas (decision 0045).

export const VOUCHER_REJECTED_MESSAGE =
  'The discount code you entered was not found or has already been used';
