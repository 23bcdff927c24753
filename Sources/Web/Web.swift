// The panel's web page (`glance web`), as pure values and functions: what glance-serve's web
// side answers is decided here, tested without the network.
