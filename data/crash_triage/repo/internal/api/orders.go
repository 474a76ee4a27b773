package api

import (
	"encoding/json"
	"net/http"

	"github.com/sundry/storefront/internal/orders"
)

// Handler serves the order endpoints.
type Handler struct {
	Orders *orders.Service
	Store  OrderStore
}

// OrderStore loads orders.
type OrderStore interface {
	Get(r *http.Request, id string) (*orders.Order, error)
}

// quoteShipping answers GET /orders/{id}/shipping-quote.
func (h *Handler) quoteShipping(w http.ResponseWriter, r *http.Request) {
	o, err := h.Store.Get(r, r.PathValue("id"))
	if err != nil {
		http.Error(w, "order not found", http.StatusNotFound)
		return
	}
	q, err := h.Orders.ShippingQuote(r.Context(), o)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(q)
}
