ALTER TABLE "reservations" ADD COLUMN "booking_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written backfill (docs/decisions/0038-back-office.md): each checkout booking's fee from its item.
UPDATE "reservations" r SET "booking_fee_cents" = (item->>'bookingFeeCents')::int
FROM "checkouts" k, jsonb_array_elements(k."items") item
WHERE r."checkout_id" = k."id"
  AND (item->>'calendarId')::int = r."calendar_id"
  AND item->>'slot' = r."slot"
  AND (item->>'bookingFeeCents')::int <> 0;
