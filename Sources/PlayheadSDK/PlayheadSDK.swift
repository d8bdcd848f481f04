// PlayheadSDK: the application-facing layer (seeds 000–002).
