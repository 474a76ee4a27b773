package orders

import (
	"context"
	"errors"
	"fmt"
)

// Address is where an order ships to. Digital orders and in-store pickups have none.
type Address struct {
	Line1      string
	City       string
	PostalCode string
	Country    string // ISO 3166-1 alpha-2, e.g. "DE"
}

// Order is the part of an order the shipping code needs.
type Order struct {
	ID        string
	Items     []Item
	Address   *Address // nil for digital orders and pickups
	Fulfilled string   // "ship", "pickup" or "digital"
}

// Item is one line of an order.
type Item struct {
	SKU      string
	Quantity int
	WeightG  int
}

// Quote is a shipping price in cents.
type Quote struct {
	Carrier string
	Cents   int64
}

// ErrNoRate is returned when no carrier serves the destination.
var ErrNoRate = errors.New("no shipping rate for destination")

// RateTable gives the price per kilogram, in cents, by destination country.
type RateTable interface {
	PerKilo(ctx context.Context, country string) (int64, error)
}

// Service computes shipping quotes.
type Service struct {
	Rates RateTable
}

// ShippingQuote prices the shipment of an order.
func (s *Service) ShippingQuote(ctx context.Context, o *Order) (Quote, error) {
	grams := 0
	for _, it := range o.Items {
		grams += it.WeightG * it.Quantity
	}
	country := o.Address.Country
	perKilo, err := s.Rates.PerKilo(ctx, country)
	if err != nil {
		return Quote{}, fmt.Errorf("rate for %s: %w", country, err)
	}
	kilos := int64((grams + 999) / 1000)
	return Quote{Carrier: "parcelnet", Cents: kilos * perKilo}, nil
}
