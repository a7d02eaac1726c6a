package clock

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

func TestNames(t *testing.T) {
	got := []string{tz.WallGap.String(), tz.WallAmbiguous.String(), tz.WallProblem(0).String(), Lenient.String(), Strict.String()}
	want := []string{"dst-gap", "dst-fold", "WallProblem(0)", "lenient", "strict"}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("got %q, want %q", got[i], want[i])
		}
	}
	if FractionPrecision(3).FractionDigits() != 3 || SecondPrecision.FractionDigits() != 0 {
		t.Errorf("FractionDigits is wrong")
	}
	z := mustZone(t, la)
	if Bind(z).Zone() != z {
		t.Errorf("Bind(z).Zone() is not z")
	}
}
