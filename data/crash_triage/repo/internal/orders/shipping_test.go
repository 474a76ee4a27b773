package orders

import (
	"context"
	"testing"
)

type fixedRates map[string]int64

func (f fixedRates) PerKilo(_ context.Context, country string) (int64, error) {
	if c, ok := f[country]; ok {
		return c, nil
	}
	return 0, ErrNoRate
}

func TestShippingQuoteRoundsUpToTheKilo(t *testing.T) {
	s := &Service{Rates: fixedRates{"DE": 450}}
	o := &Order{
		ID:        "SO-1",
		Items:     []Item{{SKU: "A", Quantity: 2, WeightG: 600}},
		Address:   &Address{Country: "DE"},
		Fulfilled: "ship",
	}
	q, err := s.ShippingQuote(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if q.Cents != 900 {
		t.Fatalf("got %d cents, want 900", q.Cents)
	}
}
