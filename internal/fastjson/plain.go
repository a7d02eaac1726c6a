package fastjson

import (
	"encoding/json"
	"errors"
	"reflect"
)

// NameAs returns err with the type P named as T in an
// *json.UnmarshalTypeError, as the value's type or as the struct that holds
// the field; any other error is returned as it is. P is T's fields without
// T's UnmarshalJSON (declared as `type P T`), through which an
// UnmarshalJSON that reads by hand hands its input to encoding/json when it
// gives up: the error then reads as it did before T had the method.
func NameAs[P, T any](err error) error {
	var ute *json.UnmarshalTypeError
	if !errors.As(err, &ute) {
		return err
	}
	p, t := reflect.TypeFor[P](), reflect.TypeFor[T]()
	if ute.Type == p {
		ute.Type = t
	}
	if ute.Struct == p.Name() {
		ute.Struct = t.Name()
	}
	return err
}
